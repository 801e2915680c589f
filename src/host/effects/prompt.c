/* effects/prompt.c — one LLM request: `prompt` {messages, system?, model?, maxTokens?,
 * temperature?, format?, tools?} → {content, toolCalls, stopReason, usage, model, provider, json?}.
 *
 * The whole request and the whole response (token usage included) are the call's record, so a
 * replay answers every turn of a conversation without a provider; the record takes the original
 * chidori's shape (prompt_record.c). The tool loop itself runs in
 * the agent's JavaScript (the prelude), one `prompt` record per model turn. Providers are the
 * operator's configuration (llm.c); nothing in args chooses an endpoint or a key.
 */
#include "host/host_internal.h"
#include "host/ops.h"
#include "host/llm.h"
#include "host/record_form.h"
#include "util/buf.h"

#include <stdlib.h>

extern const effect_module prompt_module; /* defined at the end of this file */

/* The providers, from the settings the edge read (llm.c). */
static int prompt_init(host *h, const host_config *cfg, void **state, char **error)
{
    llm_config *llm = xcalloc(1, sizeof *llm);
    llm_config_from_settings(llm, cfg->settings);
    *state = llm;
    return 0;
}

static void prompt_free(void *state) { free(state); }

static int effect_prompt(host *h, const json_t *args, json_t **result, char **error)
{
    return llm_complete(host_module_state(h, &prompt_module), args, result, error) == 0 ? HOST_OK : HOST_ERROR;
}

static const op_def prompt_ops[] = {
    {.name = "prompt", .flags = OP_RECORDED, .perform = effect_prompt, .record = &prompt_record_form},
    {0},
};

static const char *const prompt_settings[] = {"OPENAI_API_KEY",  "OPENAI_BASE_URL", "ANTHROPIC_API_KEY",
                                              "ANTHROPIC_BASE_URL", "CHIDORI_TEST_LLM_RESPONSE", "CHIDORI_MODEL",
                                              "CHIDORI_LLM_TIMEOUT_MS", NULL};

const effect_module prompt_module = {
    .name = "prompt",
    .ops = prompt_ops,
    .init = prompt_init,
    .free = prompt_free,
    .settings = prompt_settings,
};
