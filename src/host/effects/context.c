/* effects/context.c — Context.digest(): `context_digest` {segments, opts} → the hex SHA-256 of the
 * provider request those segments stand for (context_request.h), as the original chidori computes
 * it, so a digest is comparable across the two runtimes.
 *
 * Not recorded and not gated: a pure function of its arguments, performed again on replay, and
 * synchronous (the prelude returns its string, not a Promise). The one thing it reads beyond its
 * arguments is the schemas of registry tools a tools segment names: asked through host_call of
 * `tool_schemas` (the MCP servers, the policy's offer filter), so that ask is a record of its own
 * and a replay answers it from the log without contacting a server. The default
 * model is the run's configured one (CHIDORI_MODEL, ANTHROPIC_MODEL), else the original's.
 * Context prompts themselves go through the `prompt` op (effects/prompt.c).
 */
#include "host/context_request.h"
#include "host/host_internal.h"
#include "host/llm.h"
#include "host/ops.h"
#include "util/buf.h"

#include <stdlib.h>
#include <string.h>

extern const effect_module prompt_module; /* effects/prompt.c: its state is the llm_config */

static int effect_context_digest(host *h, const json_t *args, json_t **result, char **error)
{
    const json_t *segments = json_object_get(args, "segments");
    const json_t *opts = json_object_get(args, "opts");
    if (!json_is_array(segments)) {
        *error = xstrdup("context_digest: `segments` must be an array");
        return HOST_ERROR;
    }
    if (opts && opts->type != JSON_NULL && !json_is_object(opts)) {
        *error = xstrdup("chidori.context digest(options): options must be an object");
        return HOST_ERROR;
    }
    json_t *names = context_tool_names(segments, NULL, false);
    json_t *registry = NULL;
    if (names->u.array.len) {
        /* through the seam: the ask reaches MCP servers, so it is a `tool_schemas` record a
         * replay answers (performing it here, unrecorded, let a replay contact them again) */
        json_t *q = json_object();
        json_object_set(q, "names", names);
        json_object_set(q, "for", json_string("context tools"));
        names = NULL;
        int rc = host_call(h, "tool_schemas", q, &registry, error);
        json_free(q);
        if (rc != HOST_OK) return rc;
    }
    json_free(names);
    const llm_config *cfg = host_module_state(h, &prompt_module);
    json_t *orig = context_original_request(segments, NULL, registry, opts, false, cfg ? cfg->default_model : NULL, false, error);
    json_free(registry);
    if (!orig) return HOST_ERROR;
    char hex[65];
    context_request_digest(orig, hex);
    json_free(orig);
    *result = json_string(hex);
    return HOST_OK;
}

static const op_def context_ops[] = {
    {.name = "context_digest", .flags = 0, .perform = effect_context_digest}, /* pure: performed again on replay */
    {0},
};

const effect_module context_module = {
    .name = "context",
    .ops = context_ops,
};
