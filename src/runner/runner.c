/* runner.c — one durable run of an agent (see runner.h).
 *
 * Owns, for the length of one run: the host, the engine configuration, the nested-agent
 * callback (call_agent runs in the same isolation mode as the top-level agent) and the run's tree
 * budget (tree_budget.h), which its nested agents draw on. The order of the
 * set-up is the durable-run contract: load the log, choose the mode, attach the persistence
 * (file and/or sink), restore approvals, answer the pending input — and only then start the agent.
 */
#define _GNU_SOURCE
#include "runner/runner.h"
#include "runner/member_run.h"
#include "runner/nested_run.h"
#include "runner/tree_budget.h"
#include "host/host.h"
#include "host/policy.h"
#include "settings/settings.h"
#include "telemetry/otel.h"
#include "util/buf.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#define MAX_OPEN_CALLS 16

int runner_cancel_init(runner_cancel *c)
{
    atomic_init(&c->flag, 0);
    c->fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    return c->fd >= 0 ? 0 : -1;
}

void runner_cancel_now(runner_cancel *c)
{
    atomic_store(&c->flag, 1);
    if (c->fd >= 0) {
        uint64_t one = 1;
        if (write(c->fd, &one, sizeof one) < 0) {
            /* the flag alone still stops the run at its next effect */
        }
    }
}

void runner_cancel_clear(runner_cancel *c)
{
    if (c->fd >= 0) close(c->fd);
    c->fd = -1;
}

int runner_split_agent(const char *file, char **folder, char **key, char **error)
{
    char *a = xstrdup(file), *b = xstrdup(file);
    char *real = realpath(dirname(a), NULL);
    if (!real) {
        *error = xasprintf("cannot use %s: %s", file, strerror(errno));
        free(a);
        free(b);
        return -1;
    }
    *folder = real;
    *key = xstrdup(basename(b));
    free(a);
    free(b);
    return 0;
}

/* What nested agents (call_agent) need from the top-level run: its engine configuration, and its
 * tree budget with the member running at each depth (members[0] the root; a nested agent runs
 * while its parent waits, so one chain of members is alive at a time). */
#define TREE_CHAIN_MAX 16
typedef struct run_context {
    engine_config base;
    const runner_request *req;
    tree_budget *tree;
    tree_member *members[TREE_CHAIN_MAX];
    int depth;
} run_context;

/* host_config's tree_meter and tree_charge: the run at depth is members[depth]. */
static uint64_t meter_at(void *ctx, int depth, uint64_t ticks, uint64_t heap_bytes)
{
    run_context *rc = ctx;
    tree_member *m = depth >= 0 && depth < TREE_CHAIN_MAX ? rc->members[depth] : NULL;
    return m ? tree_meter(m, ticks, heap_bytes) : 0;
}

/* member_env's run_member_at: the member of the tree running at depth (the root when out of range). */
static tree_member *member_at(void *ctx, int depth)
{
    run_context *rc = ctx;
    tree_member *m = depth >= 0 && depth < TREE_CHAIN_MAX ? rc->members[depth] : NULL;
    return m ? m : rc->members[0];
}

static void tree_charge_at(void *ctx, int depth, uint64_t ticks)
{
    run_context *rc = ctx;
    tree_member *m = depth >= 0 && depth < TREE_CHAIN_MAX ? rc->members[depth] : NULL;
    if (m) tree_charge(m, ticks);
}

/* One engine run, in this process or in a confined worker. top: the top-level agent (it may
 * print the banner); nested runs in-process get a thread, since each engine needs its own stack. */
static void run_engine(run_context *rc, const engine_config *cfg, host *h, bool top, engine_result *res)
{
    const runner_request *req = rc->req;
    if (!req->isolated) {
        if (top && !req->engine_on_thread) {
            engine_config once = *cfg;
            once.exit_after = req->exit_after;
            engine_run(&once, res);
        } else engine_run_on_thread(cfg, res);
        return;
    }
    char *text = NULL;
    isolate_options o = req->iso;
    /* test-only: a nested agent's worker spins in C, never polling (tests/cases_tree_budget.py) */
    if (o.selftest && !strcmp(o.selftest, "nested_hang_spin")) o.selftest = top ? NULL : "hang_spin";
    supervisor_run(cfg, h, &o, res, top && req->banner ? &text : NULL);
    free(text);
}

/* A nested agent is a member of the run's tree: admitted under the run that calls it, granted what
 * is left of the tree's limits, and charged to its caller when it ends. A refusal, or a limit of
 * the grant crossed, ends the whole tree (end->ends_tree, HOST_ABORT). */
static void nested_engine(void *ctx, engine_config *cfg, host *h, engine_result *res)
{
    run_engine(ctx, cfg, h, false, res);
}

static int run_nested(void *ctx, host *h, const char *entry, const char *input_json, char **output,
                      host_nested_end *end, char **error)
{
    run_context *rc = ctx;
    engine_config cfg = rc->base;
    cfg.mode = ENGINE_AGENT;
    cfg.entry = entry;
    cfg.input_json = input_json;
    cfg.seed = nested_seed(rc->base.seed, entry, input_json);
    cfg.seam = host_seam(h);
    return nested_run(rc->tree, rc->members[rc->depth], rc->members, &rc->depth, TREE_CHAIN_MAX, &cfg, h, entry,
                      nested_engine, rc, output, end, error);
}

static bool as_seq(const json_t *v, uint64_t *out)
{
    if (!v || v->type != JSON_NUMBER || !(v->u.number >= 1 && v->u.number <= 9007199254740991.0)) return false;
    *out = (uint64_t)v->u.number;
    return true;
}

/* A paused call's open calls (the call_agent calls it was nested in) get their seqs again, so
 * the replayed nested records line up with them. */
static int reopen_calls(calllog *log, const json_t *pending, char **error)
{
    const json_t *open = json_object_get(pending, "open_calls");
    const json_t *parent = json_object_get(pending, "parent_seq");
    uint64_t seqs[MAX_OPEN_CALLS], seq = 0, parent_seq = 0;
    size_t n = 0;
    if (!as_seq(json_object_get(pending, "seq"), &seq)) goto bad;
    if (parent && parent->type != JSON_NULL && !as_seq(parent, &parent_seq)) goto bad;
    if (open && (!json_is_array(open) || open->u.array.len > MAX_OPEN_CALLS)) goto bad;
    for (size_t i = 0; open && i < open->u.array.len; i++)
        if (!as_seq(open->u.array.items[i], &seqs[n++])) goto bad;
    /* stored state anyone with the database could have edited: it must agree with the log */
    if (calllog_check_pending(log, seq, parent_seq, seqs, n, error) < 0) return -1;
    calllog_queue_seqs(log, seqs, n);
    return 0;
bad:
    *error = xstrdup("the run's pending call is malformed");
    return -1;
}

/* After a crash: records whose parent_seq is not in the log belong to call_agent calls that were
 * still in progress. Those calls are made again by the replay; they take their old seqs
 * (outermost first), so the nested records answer again instead of running live twice. known_open
 * (may be NULL) lists calls known to have been open (a paused run's open calls): those still
 * without a record are adopted too, even if no record names them as its parent (an agent whose
 * only call so far is the nested agent still open). */
static void adopt_open_calls(calllog *log, const json_t *known_open)
{
    uint64_t seqs[MAX_OPEN_CALLS];
    size_t n = 0, count = calllog_held(log);
    for (size_t i = 0; json_is_array(known_open) && i < known_open->u.array.len && n < MAX_OPEN_CALLS; i++) {
        uint64_t seq;
        if (!as_seq(known_open->u.array.items[i], &seq) || calllog_has_seq(log, seq)) continue;
        bool known = false;
        for (size_t j = 0; j < n && !known; j++) known = seqs[j] == seq;
        if (!known) seqs[n++] = seq;
    }
    for (size_t i = 0; i < count; i++) {
        uint64_t parent = calllog_get(log, i)->parent_seq;
        if (!parent) continue;
        bool known = calllog_has_seq(log, parent);
        for (size_t j = 0; j < n && !known; j++) known = seqs[j] == parent;
        if (!known && n < MAX_OPEN_CALLS) seqs[n++] = parent;
    }
    for (size_t i = 1; i < n; i++) /* ascending: the outer call was made first */
        for (size_t j = i; j > 0 && seqs[j - 1] > seqs[j]; j--) {
            uint64_t t = seqs[j];
            seqs[j] = seqs[j - 1];
            seqs[j - 1] = t;
        }
    if (n) calllog_queue_seqs(log, seqs, n);
}

/* A resume whose answer is already in the log: an earlier resume recorded it and was stopped
 * (killed) before it ended. The record at the pending seq must be the very input the run paused
 * on; the run then goes on from the log as a recovery does (the answer replays, nothing is appended
 * twice), and a different answer given now is not used (said on out). 0, or -1 with *error. */
static int take_recorded_answer(calllog *log, const json_t *pending, const call_record *rec, const char *response,
                                bool adopted, FILE *out, char **error)
{
    const json_t *parent = json_object_get(pending, "parent_seq");
    uint64_t parent_seq = 0;
    if (parent && parent->type != JSON_NULL && !as_seq(parent, &parent_seq)) {
        *error = xstrdup("the run's pending call is malformed");
        return -1;
    }
    if (strcmp(rec->function, "input") != 0 || rec->parent_seq != parent_seq ||
        !json_equal(call_record_args(rec), json_object_get(pending, "args"))) {
        *error = xasprintf("the run's pending call is not consistent with its call log: seq %llu in the log is a "
                           "`%s` call, not the input the run paused on; the run folder was changed since the run "
                           "paused; restore run.json from a backup, or start a new run",
                           (unsigned long long)rec->seq, rec->function);
        return -1;
    }
    const char *recorded = json_string_value(rec->result);
    if (response && (!recorded || strcmp(recorded, response) != 0))
        fprintf(out, "chidori: the input at seq %llu was already answered in the call log by an earlier resume "
                     "that was interrupted; that recorded answer is used, not the --response given now\n",
                (unsigned long long)rec->seq);
    if (!adopted) adopt_open_calls(log, json_object_get(pending, "open_calls"));
    return 0;
}

static int restore_approvals(host *h, const json_t *approvals, char **error)
{
    if (!approvals) return 0;
    if (!json_is_array(approvals)) goto bad;
    for (size_t i = 0; i < approvals->u.array.len; i++) {
        const json_t *a = approvals->u.array.items[i];
        const char *target = json_string_value(json_object_get(a, "target"));
        if (!target || !json_object_get(a, "args")) goto bad;
        host_approve(h, target, json_object_get(a, "args"));
    }
    return 0;
bad:
    *error = xstrdup("the session's approvals are malformed");
    return -1;
}

int runner_run(const runner_request *req, runner_outcome *out, char **error)
{
    memset(out, 0, sizeof *out);
    run_context rc = {.req = req};
    rc.base.limits = req->limits;
    /* an in-process run (and the in-process agents it calls) halts at its next interrupt poll once
     * cancelled, so a pure computation stops too (an isolated one's worker is killed instead) */
    if (!req->isolated && req->cancel) rc.base.limits.stop = &req->cancel->flag;
    tree_caps caps;
    tree_caps_from(&caps, &req->limits, req->settings);
    rc.tree = tree_budget_new(&caps);
    rc.members[0] = tree_root(rc.tree);
    rc.base.seed = req->seed;
    rc.base.clock_start_ms = req->clock_start_ms;
    host_config hc = {
        .project_root = req->project_root,
        .state_dir = req->state_dir,
        .settings = req->settings,
        .log_out = req->log_out ? req->log_out : stderr,
        .console_out = req->log_out ? req->log_out : stderr,
        .answers = req->answers,
        .n_answers = req->n_answers,
        .interactive = req->interactive,
        .run_nested = run_nested,
        .nested_ctx = &rc,
        .tree_meter = meter_at,
        .tree_charge = tree_charge_at,
        .tree_ctx = &rc,
        .policy = req->policy,
        .session_policy = req->session_policy,
        .approvals_can_suspend = req->approvals_can_suspend,
        .cancel = req->cancel ? &req->cancel->flag : NULL,
        .memory = req->memory,
        .signals = req->signals,
        .vfs_clock_ms = req->clock_start_ms,
        .call_started = req->call_started,
        .call_started_ctx = req->call_started_ctx,
        .prompt_event = req->prompt_event,
        .prompt_event_ctx = req->prompt_event_ctx,
        .park = req->park,
        .park_ctx = req->park_ctx,
        .run_id = req->run_id,
        .run_dir = req->run_dir,
        .anchor_seq = req->anchor_seq,
        .in_member = req->anchor_seq != 0,
    };
    if (req->surface) {
        surface_apply_to_engine(req->surface, &rc.base);
        hc.vfs_seed = req->surface->vfs_seed;
        hc.vfs_max_bytes = req->surface->vfs_max_bytes;
        hc.fs_disabled = req->surface->fs && !strcmp(req->surface->fs, "none");
    }
    /* the run's trace: a replay (replay-only) exports nothing unless CHIDORI_OTEL_REPLAY asks */
    bool trace_replayed = settings_flag(req->settings, "CHIDORI_OTEL_REPLAY");
    otel_run *trace = NULL;
    if (otel_enabled() && (req->mode != LOG_REPLAY_ONLY || trace_replayed))
        trace = otel_run_begin(req->entry, req->run_id, req->traceparent);
    hc.trace = trace;
    hc.trace_replayed = trace_replayed;
    /* sub-runs (branch): members get this run's engine and host configuration (runner/member_run.h) */
    member_env members;
    member_env_init(&members, &rc.base, &hc, req->isolated, &req->iso);
    member_env_set_tree(&members, rc.tree, &rc, member_at); /* members draw on the run's tree budget */
    hc.members = &members.ops;
    host *h = host_new(&hc, error);
    if (!h) {
        member_env_clear(&members);
        otel_run_end(trace, *error);
        tree_budget_free(rc.tree);
        return -1;
    }
    calllog *log = host_calllog(h);
    int rc_setup = 0;
    if (req->records_file) rc_setup = calllog_load(log, req->records_file, error);
    else if (req->records) rc_setup = calllog_load_records(log, req->records, "the session's call log", error);
    if (rc_setup == 0) {
        calllog_set_caps(log, &req->log_caps);
        calllog_set_mode(log, req->mode);
        if (req->mode == LOG_REPLAY_ONLY && req->recorded_pause) calllog_expect_pause(log, req->recorded_pause);
        if (req->persist_file) rc_setup = calllog_persist_to(log, req->persist_file, req->persist_companion, error);
    }
    if (rc_setup == 0) {
        if (req->sink) calllog_set_sink(log, req->sink, req->sink_ctx);
        rc_setup = restore_approvals(h, req->approvals, error);
    }
    if (rc_setup == 0 && req->seq_after) calllog_start_after(log, req->seq_after);
    if (rc_setup == 0 && req->n_queue_seqs) calllog_queue_seqs(log, req->queue_seqs, req->n_queue_seqs);
    if (rc_setup == 0 && req->adopt_open_calls) adopt_open_calls(log, NULL);
    if (rc_setup == 0 && req->reopen) rc_setup = reopen_calls(log, req->reopen, error);
    if (rc_setup == 0 && req->pending) {
        uint64_t pseq = 0;
        const call_record *answered =
            as_seq(json_object_get(req->pending, "seq"), &pseq) ? calllog_find_seq(log, pseq) : NULL;
        rc_setup = answered ? take_recorded_answer(log, req->pending, answered, req->response, req->adopt_open_calls,
                                                   hc.log_out, error)
                            : host_resume(h, req->pending, req->response, error);
    }
    if (rc_setup != 0) {
        otel_run_end(trace, *error);
        host_free(h);
        member_env_clear(&members);
        tree_budget_free(rc.tree);
        return -1;
    }
    /* the isolation options are the caller's; this run also watches its cancel descriptor */
    runner_request local = *req;
    if (req->isolated && req->cancel && req->cancel->fd >= 0) {
        local.iso.watch_cancel = true;
        local.iso.cancel_fd = req->cancel->fd;
    }
    rc.req = &local;
    if (req->ready) req->ready(req->ready_ctx);

    char *input_text = json_dump(req->input, JSON_COMPACT, NULL);
    engine_config cfg = rc.base;
    cfg.mode = ENGINE_AGENT;
    cfg.entry = req->entry;
    cfg.input_json = input_text;
    cfg.seam = host_seam(h);
    engine_result res;
    run_engine(&rc, &cfg, h, true, &res);
    /* trace records still waiting are written before the outcome is: a run whose log cannot be
     * completed fails, as one whose append failed */
    char *unwritten = NULL;
    if (calllog_flush(log, &unwritten) != 0) {
        if (res.status != RUN_FAILED) {
            free(res.output_json);
            res.output_json = NULL;
            free(res.error);
            res.error = unwritten;
            res.status = RUN_FAILED;
        } else {
            free(unwritten);
        }
    }

    out->cancelled = req->cancel && atomic_load(&req->cancel->flag);
    if (res.status == RUN_COMPLETED && !out->cancelled) {
        out->status = RUNNER_COMPLETED;
        out->output_json = res.output_json;
        res.output_json = NULL;
    } else if (res.status == RUN_PAUSED && !out->cancelled) {
        out->pending = json_copy(host_pending(h));
        out->status = RUNNER_PAUSED;
        if (host_pending_approval(h)) {
            out->status = RUNNER_AWAITING_APPROVAL;
            out->pending_approval = json_copy(host_pending_approval(h));
        }
    } else {
        out->status = RUNNER_FAILED;
        out->error = out->cancelled ? xstrdup("cancelled") : res.error;
        if (!out->cancelled) res.error = NULL;
    }
    out->call_count = host_record_count(h);
    out->diverged_at = out->status == RUNNER_FAILED && host_aborted(h) ? host_diverged_at(h) : 0;
    out->live_calls = host_live_calls(h);
    out->modules = host_modules_served(h);
    /* the engine's claim, kept only where it can be true: nothing was recorded, no limit ended it */
    out->input_invalid = out->status == RUNNER_FAILED && !out->cancelled && res.input_invalid &&
                         res.limit == LIMIT_NONE && out->call_count == 0 && !host_aborted(h);
    otel_run_end(trace, out->status == RUNNER_FAILED ? (out->error ? out->error : "the run failed") : NULL);
    engine_result_free(&res);
    free(input_text);
    /* every member is freed by now: by the effect that started it, or its module's free */
    if (req->exit_after) host_free_at_exit(h);
    else host_free(h);
    member_env_clear(&members);
    tree_budget_free(rc.tree);
    return 0;
}

void runner_outcome_clear(runner_outcome *out)
{
    free(out->output_json);
    free(out->error);
    json_free(out->pending);
    json_free(out->pending_approval);
    json_free(out->modules);
    memset(out, 0, sizeof *out);
}
