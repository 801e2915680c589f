/* effects/agent.c — chidori.callAgent(path, input): a nested run of another agent file.
 *
 * `call_agent` {path, input}. The path is relative to the project folder and must stay inside
 * it (the nested run's modules resolve through the same confined loader). The nested run's calls
 * are recorded with parent_seq = this call's seq; once it completes, this call's record answers
 * on replay and the nested run is not re-run (it replays as one unit). Nesting is capped at
 * HOST_MAX_NESTING, and the number of nested runs one root run starts (over the whole tree) at
 * CHIDORI_MAX_NESTED_RUNS: each nested run gets a fresh CPU budget, so without that cap a loop of
 * callAgent would run without bound. The count is replay-consistent: it is the number of
 * call_agent calls the run made, refused ones included — the records of the loaded log (replayed
 * ones, and the nested ones inside them that replay does not re-run) plus each live one, counted
 * by host_call before the gate (host_count_call_agent) — so a run that met the cap meets it at the
 * same call again, on replay and after a resume. The engine is reached through the run_nested callback the CLI provides.
 * The nested run has its own VFS for its lifetime (host_vfs), fresh from the seed.
 */
#include "host/host_internal.h"
#include "host/ops.h"
#include "util/buf.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void host_count_call_agent(host *h)
{
    /* At the first live call_agent (nothing of this process's own is in the log yet), every
     * call_agent record of the loaded log, at every depth, whatever its outcome; then each live
     * one, whatever its outcome (a denial or a refusal included), this one too. */
    if (!h->nested_runs_counted) {
        h->nested_runs_counted = true;
        size_t n = calllog_count(h->log);
        for (size_t i = 0; i < n; i++) {
            const call_record *r = calllog_get(h->log, i);
            if (r && r->function && !strcmp(r->function, "call_agent")) h->nested_runs++;
        }
    }
    h->nested_runs++;
}

int effect_call_agent(host *h, const json_t *args, json_t **result, char **error)
{
    const json_t *pv = json_object_get(args, "path");
    if (!json_is_string(pv) || !path_is_confined(pv->u.string.bytes, pv->u.string.len)) {
        *error = xstrdup("chidori.callAgent: `path` must be a relative path inside the agent's folder");
        return HOST_ERROR;
    }
    const json_t *input = json_object_get(args, "input");
    if (input && input->type != JSON_NULL && !json_is_object(input)) {
        *error = xstrdup("chidori.callAgent: `input` must be an object");
        return HOST_ERROR;
    }
    if (!h->run_nested) {
        *error = xstrdup("chidori.callAgent is not available here");
        return HOST_ERROR;
    }
    if (h->depth >= HOST_MAX_NESTING) {
        *error = xasprintf("chidori.callAgent: agents nested more than %d deep", HOST_MAX_NESTING);
        return HOST_ERROR;
    }
    if (h->nested_runs > (uint64_t)h->max_nested_runs) {
        *error = xasprintf("chidori.callAgent: this run has started %d nested agent runs, its cap "
                           "(CHIDORI_MAX_NESTED_RUNS=%d, counted over every depth); raise the cap or call "
                           "fewer agents",
                           h->max_nested_runs, h->max_nested_runs);
        return HOST_ERROR;
    }
    char *input_json = input && input->type != JSON_NULL ? json_dump(input, JSON_COMPACT, NULL) : xstrdup("{}");
    uint64_t outer_parent = h->parent_seq;
    h->parent_seq = h->call_seq;
    h->depth++;
    host_vfs_release(h, h->depth); /* the nested run starts from the seed (docs/vfs.md) */
    h->step_since_fs_barrier[h->depth] = false;
    h->open_calls[h->n_open_calls++] = h->call_seq;
    char *output = NULL;
    int rc = h->run_nested(h->nested_ctx, h, pv->u.string.bytes, input_json, &output, error);
    host_vfs_release(h, h->depth); /* and its files end with it */
    h->n_open_calls--;
    h->depth--;
    h->parent_seq = outer_parent;
    free(input_json);
    if (rc != HOST_OK) {
        free(output);
        return rc;
    }
    json_error jerr;
    *result = json_parse(output, strlen(output), NULL, &jerr);
    free(output);
    if (!*result) {
        *error = xasprintf("chidori.callAgent: the nested agent's output is not JSON (%s)", jerr.message);
        return HOST_ERROR;
    }
    return HOST_OK;
}
