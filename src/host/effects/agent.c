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
 * by host_call before the gate (the op's before_gate, count_call_agent) — so a run that met the cap
 * meets it at the same call again, on replay and after a resume. The engine is reached through the
 * run_nested callback the CLI provides. The nested run starts one level deeper (host_nest_enter),
 * where every module drops what it kept for that depth: it has its own VFS for its lifetime, fresh
 * from the seed.
 *
 * The nested run draws on the run's tree budget (runner/tree_budget.h, through run_nested): the
 * record of a completed call says what it spent (`tree_ticks`, charged again on replay), and a
 * call that crossed a limit of the tree is recorded as failed with `ends_run` and ends the run,
 * uncatchably, live and on replay.
 */
#include "host/host_internal.h"
#include "host/ops.h"
#include "util/buf.h"
#include "settings/settings.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

extern const effect_module agent_module; /* defined at the end of this file */

/* The nested runs: how to start one (the CLI's callback), and the cap on how many one root run
 * starts, with the count so far. */
typedef struct agent_state {
    host_nested_fn *run_nested;
    void *nested_ctx;
    int max_nested_runs;      /* CHIDORI_MAX_NESTED_RUNS: call_agent runs per root run, all depths */
    uint64_t nested_runs;     /* call_agent calls this root run made, the logged ones included */
    bool nested_runs_counted; /* the logged ones were counted (at the first live call_agent) */
} agent_state;

static int agent_init(host *h, const host_config *cfg, void **state, char **error)
{
    agent_state *s = xcalloc(1, sizeof *s);
    s->run_nested = cfg->run_nested;
    s->nested_ctx = cfg->nested_ctx;
    s->max_nested_runs = (int)settings_u64(cfg->settings, "CHIDORI_MAX_NESTED_RUNS");
    *state = s;
    return 0;
}

static void agent_free(void *state) { free(state); }

/* Before the gate of each live call_agent: count it (the nested-run cap). */
static void count_call_agent(host *h)
{
    agent_state *s = host_module_state(h, &agent_module);
    /* At the first live call_agent (nothing of this process's own is in the log yet), every
     * call_agent record of the loaded log, at every depth, whatever its outcome; then each live
     * one, whatever its outcome (a denial or a refusal included), this one too. */
    if (!s->nested_runs_counted) {
        s->nested_runs_counted = true;
        size_t n = calllog_count(h->log);
        for (size_t i = 0; i < n; i++) {
            const call_record *r = calllog_get(h->log, i);
            if (r && r->function && !strcmp(r->function, "call_agent")) s->nested_runs++;
        }
    }
    s->nested_runs++;
}

static int effect_call_agent(host *h, const json_t *args, json_t **result, char **error)
{
    agent_state *s = host_module_state(h, &agent_module);
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
    if (!s->run_nested) {
        *error = xstrdup("chidori.callAgent is not available here");
        return HOST_ERROR;
    }
    if (h->depth >= HOST_MAX_NESTING) {
        *error = xasprintf("chidori.callAgent: agents nested more than %d deep", HOST_MAX_NESTING);
        return HOST_ERROR;
    }
    if (s->nested_runs > (uint64_t)s->max_nested_runs) {
        *error = xasprintf("chidori.callAgent: this run has started %d nested agent runs, its cap "
                           "(CHIDORI_MAX_NESTED_RUNS=%d, counted over every depth); raise the cap or call "
                           "fewer agents",
                           s->max_nested_runs, s->max_nested_runs);
        return HOST_ERROR;
    }
    char *input_json = input && input->type != JSON_NULL ? json_dump(input, JSON_COMPACT, NULL) : xstrdup("{}");
    host_nest_enter(h); /* the nested run's calls are this call's children; its VFS starts from the seed */
    char *output = NULL;
    host_nested_end end = {0};
    int rc = s->run_nested(s->nested_ctx, h, pv->u.string.bytes, input_json, &output, &end, error);
    host_nest_leave(h); /* and its files end with it */
    free(input_json);
    if (end.ends_tree && rc != HOST_SUSPEND) {
        /* a limit of the run's tree budget: recorded as failed with ends_run, so that a replay ends
         * the run here again, and then the run ends (host.c) */
        free(output);
        h->end_after_record = true;
        return HOST_ERROR;
    }
    if (rc == HOST_OK || rc == HOST_ERROR) {
        /* the ticks it spent, charged to this run again when the record replays (host.c), whether
         * it completed or failed (a caught failure cost its caller's budget as much) */
        json_free(h->record_extra);
        h->record_extra = json_object();
        json_object_set(h->record_extra, "tree_ticks", json_number((double)end.ticks));
    }
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

static const op_def agent_ops[] = {
    {.name = "call_agent", .flags = OP_RECORDED | OP_NESTS, .perform = effect_call_agent, .before_gate = count_call_agent},
    {0},
};

static const char *const agent_settings[] = {"CHIDORI_MAX_NESTED_RUNS", NULL};

const effect_module agent_module = {
    .name = "agent",
    .ops = agent_ops,
    .init = agent_init,
    .free = agent_free,
    .settings = agent_settings,
};
