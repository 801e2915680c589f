/* effects/prompt.c — one LLM request: `prompt` {messages, system?, model?, maxTokens?,
 * temperature?, format?, tools?} → {content, toolCalls, stopReason, usage, model, provider, json?}.
 *
 * The whole request and the whole response (token usage included) are the call's record, so a
 * replay answers every turn of a conversation without a provider; the record takes the original
 * chidori's shape (prompt_record.c). The tool loop itself runs in
 * the agent's JavaScript (the prelude), one `prompt` record per model turn. Providers are the
 * operator's configuration (llm.c); nothing in args chooses an endpoint or a key.
 *
 * When the run has a prompt_event hook (`run --stream`, serve), the provider is asked to stream
 * and the hook hears prompt_start, each prompt_delta and prompt_end (host.h) while the call is
 * performed, on the trusted side: an isolated worker sees none of it. The record is the same
 * response either way; a replayed call is answered from the log and tells nothing.
 */
#include "host/context_request.h"
#include "host/host_internal.h"
#include "host/ops.h"
#include "host/llm.h"
#include "host/record_form.h"
#include "util/buf.h"
#include "util/random.h"

#include <stdlib.h>

extern const effect_module prompt_module; /* defined at the end of this file */

/* The providers, from the settings the edge read (llm.c). */
static int prompt_init(host *h, const host_config *cfg, void **state, char **error)
{
    llm_config *llm = xcalloc(1, sizeof *llm);
    llm_config_from_settings(llm, cfg->settings);
    if (cfg->default_model && *cfg->default_model) llm->default_model = cfg->default_model; /* an actor's intercept */
    llm->cancel = cfg->cancel; /* a cancel ends a wait for a request slot or a retry */
    /* a run's nested agents and actors share its host_config's cancel flag (member_run.c), and
     * each session of a server has its own: so it names the run tree whose turn a wait is */
    llm->pace_owner = cfg->cancel;
    *state = llm;
    return 0;
}

static void prompt_free(void *state) { free(state); }

/* ---------- streaming: prompt_start, prompt_delta…, prompt_end to host_config.prompt_event ---------- */

typedef struct prompt_stream {
    host *h;
    char stream_id[37];
    uint64_t seq;
    const json_t *prompt_type; /* args.type, a string, or NULL */
    bool started;
} prompt_stream;

static json_t *event_of(const prompt_stream *ps, const char *type)
{
    json_t *e = json_object();
    json_object_set(e, "type", json_string(type));
    json_object_set(e, "stream_id", json_string(ps->stream_id));
    json_object_set(e, "seq", json_number((double)ps->seq));
    json_object_set(e, "prompt_type", ps->prompt_type ? json_copy(ps->prompt_type) : json_null());
    return e;
}

static void tell(prompt_stream *ps, json_t *e)
{
    ps->h->prompt_event(ps->h->prompt_event_ctx, e);
    json_free(e);
}

static void on_start(void *ctx, const char *model)
{
    prompt_stream *ps = ctx;
    json_t *e = event_of(ps, "prompt_start");
    json_object_set(e, "model", model ? json_string(model) : json_null());
    ps->started = true;
    tell(ps, e);
}

static void on_delta(void *ctx, const char *text, size_t len)
{
    prompt_stream *ps = ctx;
    json_t *e = event_of(ps, "prompt_delta");
    json_object_set(e, "delta", json_stringn(text, len));
    tell(ps, e);
}

static int prompt_request(host *h, const json_t *args, json_t **result, char **error);

/* A context call (chidori.context: args hold `__context`) is sent as the request its segments
 * stand for (context_request.c); any other as the request the prelude built. */
static int effect_prompt(host *h, const json_t *args, json_t **result, char **error)
{
    if (!context_request_is(args)) return prompt_request(h, args, result, error);
    json_t *req = context_llm_request(args, error);
    if (!req) return HOST_ERROR;
    int rc = prompt_request(h, req, result, error);
    json_free(req);
    return rc;
}

static int prompt_request(host *h, const json_t *args, json_t **result, char **error)
{
    const llm_config *cfg = host_module_state(h, &prompt_module);
    if (!h->prompt_event) return llm_complete(cfg, args, result, error) == 0 ? HOST_OK : HOST_ERROR;
    prompt_stream ps = {.h = h, .seq = h->call_seq};
    uuid_v4(ps.stream_id);
    const json_t *pt = json_object_get(args, "type");
    ps.prompt_type = json_is_string(pt) ? pt : NULL;
    llm_stream st = {on_start, on_delta, &ps};
    int rc = llm_complete_stream(cfg, args, &st, result, error);
    if (!ps.started) { /* no provider could be chosen: the start still comes before the end */
        const char *m = json_string_value(json_object_get(args, "model"));
        on_start(&ps, m && *m ? m : cfg->default_model);
    }
    json_t *e = event_of(&ps, "prompt_end");
    json_object_set(e, "error", rc == 0 ? json_null() : json_string(*error));
    tell(&ps, e);
    return rc == 0 ? HOST_OK : HOST_ERROR;
}

static const op_def prompt_ops[] = {
    {.name = "prompt", .flags = OP_RECORDED, .perform = effect_prompt, .record = &prompt_record_form},
    {0},
};

static const char *const prompt_settings[] = {"OPENAI_API_KEY",  "OPENAI_BASE_URL", "ANTHROPIC_API_KEY",
                                              "ANTHROPIC_BASE_URL", "CHIDORI_TEST_LLM_RESPONSE", "CHIDORI_MODEL",
                                              "CHIDORI_LLM_TIMEOUT_MS", "ANTHROPIC_MODEL",
                                              "CHIDORI_OPENAI_COMPAT_URL", "CHIDORI_OPENAI_COMPAT_KEY",
                                              "LITELLM_API_URL", "LITELLM_API_KEY", "OPENROUTER_API_KEY",
                                              "CHIDORI_OPENROUTER_URL", "CHIDORI_TEST_LLM_TOOL_CALL",
                                              "CHIDORI_ANTHROPIC_RPM", "CHIDORI_OPENAI_RPM", "CHIDORI_OPENAI_COMPAT_RPM",
                                              "CHIDORI_LITELLM_RPM", "CHIDORI_OPENROUTER_RPM", "CHIDORI_PROMPT_CACHE_DIR",
                                              "CHIDORI_PROMPT_CACHE_MAX_MB", NULL};

const effect_module prompt_module = {
    .name = "prompt",
    .ops = prompt_ops,
    .init = prompt_init,
    .free = prompt_free,
    .settings = prompt_settings,
};
