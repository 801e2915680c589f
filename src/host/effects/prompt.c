/* effects/prompt.c — one LLM request: `prompt` {messages, system?, model?, maxTokens?,
 * temperature?, format?, tools?} → {content, toolCalls, stopReason, usage, model, provider, json?}.
 *
 * The whole request and the whole response (token usage included) are the call's record, so a
 * replay answers every turn of a conversation without a provider. The tool loop itself runs in
 * the agent's JavaScript (the prelude), one `prompt` record per model turn. Providers are the
 * operator's configuration (llm.c); nothing in args chooses an endpoint or a key.
 */
#include "host/host_internal.h"
#include "host/ops.h"
#include "util/buf.h"

int effect_prompt(host *h, const json_t *args, json_t **result, char **error)
{
    return llm_complete(&h->llm, args, result, error) == 0 ? HOST_OK : HOST_ERROR;
}
