/* nested_run.c — one nested agent run as a member of its run's tree budget (see nested_run.h). */
#define _GNU_SOURCE
#include "runner/nested_run.h"
#include "util/buf.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

uint64_t nested_mix64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

uint64_t nested_seed(uint64_t seed, const char *entry, const char *input_json)
{
    uint64_t h = seed;
    for (const char *p = entry; *p; p++) h = nested_mix64(h ^ (unsigned char)*p);
    for (const char *p = input_json; *p; p++) h = nested_mix64(h ^ (unsigned char)*p);
    return h;
}

char *nested_first_line(const char *text)
{
    const char *nl = text ? strchr(text, '\n') : NULL;
    return text ? (nl ? xstrndup(text, (size_t)(nl - text)) : xstrdup(text)) : xstrdup("?");
}

int nested_run(tree_budget *tb, tree_member *parent, tree_member **chain, int *depth, int chain_max,
               engine_config *cfg, host *h, const char *entry, nested_engine_fn *engine, void *engine_ctx,
               char **output, host_nested_end *end, char **error)
{
    tree_member *m = NULL;
    engine_limit_kind crossed;
    char *why = NULL;
    if (*depth + 1 >= chain_max) {
        why = xstrdup("agent tree depth cap reached: nested agents cannot go deeper here");
    } else if (tree_admit(tb, parent, &m, &why) == 0 && tree_grant(tb, m, 1, &cfg->limits, &crossed, &why) != 0) {
        tree_leave(m, 0);
        m = NULL;
    }
    if (!m) {
        tree_abort(tb, why);
        *error = why;
        end->ends_tree = true;
        return HOST_ABORT;
    }
    chain[++*depth] = m;
    engine_result res;
    engine(engine_ctx, cfg, h, &res);
    chain[(*depth)--] = NULL;
    end->ticks = res.ticks;
    tree_leave(m, res.ticks);
    int code;
    if (res.status == RUN_FAILED && !host_aborted(h) &&
        (res.limit == LIMIT_BUDGET || res.limit == LIMIT_DEADLINE || res.limit == LIMIT_MEMORY)) {
        /* it crossed its grant, so the tree's limit: the whole tree ends */
        char *who = xasprintf("nested agent %s", entry), *detail = nested_first_line(res.error);
        *error = tree_limit_message(tb, res.limit, who, detail);
        tree_abort(tb, *error);
        free(who);
        free(detail);
        end->ends_tree = true;
        code = HOST_ABORT;
    } else if (res.status == RUN_FAILED && host_aborted(h) && tree_ended(tb)) {
        /* a run below it ended the tree: every call_agent on the way up is recorded as ending it */
        *error = xstrdup(tree_ended(tb));
        end->ends_tree = true;
        code = HOST_ABORT;
    } else if (res.status == RUN_FAILED && cfg->limits.stop && atomic_load(cfg->limits.stop)) {
        /* halted by its run's cancel (or its member's stop) at an interrupt poll: the run ends
         * here, and the call is not recorded as a failure a re-run would replay */
        *error = host_aborted(h) && host_abort_reason(h)
                     ? xstrdup(host_abort_reason(h))
                     : xasprintf("nested agent %s stopped: its run was cancelled or asked to stop", entry);
        code = HOST_ABORT;
    } else if (res.status == RUN_COMPLETED) {
        *output = res.output_json;
        res.output_json = NULL;
        code = HOST_OK;
    } else if (res.status == RUN_PAUSED) {
        code = HOST_SUSPEND;
    } else {
        *error = host_aborted(h) ? xstrdup(res.error) : xasprintf("agent %s failed: %s", entry, res.error);
        code = host_aborted(h) ? HOST_ABORT : HOST_ERROR;
    }
    engine_result_free(&res);
    return code;
}
