/* member_run.c — sub-runs on threads of their own (see runner/member_run.h and host/member.h).
 *
 * Owns each member's thread, its host (made and freed on that thread), the records its log
 * appends (collected through the log's sink, since a log keeps no appended record), its stop flag
 * and stop descriptor, and its outcome. Trusts the effect that starts it (the host side checks the
 * entry and the ranges); trusts nothing the member's agent does (its host and, when isolated, its
 * worker see to that). One process-wide lock and condition variable say when members end: a
 * member's `done` and `out` are written under it once, and read only after it is set.
 */
#define _GNU_SOURCE
#include "runner/member_run.h"
#include "runner/nested_run.h"
#include "runner/tree_budget.h"
#include "util/buf.h"
#include "util/clock.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

/* call_agent depths a member keeps a chain of tree members for (HOST_MAX_NESTING is 8) */
#define MEMBER_CHAIN 16

/* A wait looks at the run's cancellation this often (a cancelled run stops what it waits for). */
#define WAIT_SLICE_MS 100

struct host_member {
    member_env *env;
    pthread_t thread;
    bool started, joined;
    /* the spec, owned */
    char *entry, *input_json;
    json_t *vfs_seed, *records_in, *approvals;
    char *default_model, *workspace_root; /* an actor's intercept, or NULL */
    json_t *tool_allow;
    uint64_t *queued;
    size_t n_queued;
    uint64_t anchor_seq, seq_base, seq_end, salt;
    void *user;
    void (*on_stop)(void *user);
    /* the run's tree budget: its member of the tree (NULL: no budget, or it has left) and its grant */
    tree_member *tm;
    engine_limits grant;
    /* the nested agents it calls (call_agent), on its thread: chain[d] runs at call_agent depth d */
    tree_member *chain[MEMBER_CHAIN];
    int depth;
    uint64_t seed; /* its engine's seed: its nested agents' seeds derive from it */
    /* stopping */
    atomic_int stop;
    int stop_fd; /* eventfd an isolated member's supervisor watches; -1 if none */
    /* what it recorded (the sink, on its thread) and how it ended */
    json_t *records;
    bool done; /* under done_mu */
    host_member_outcome out;
};

static pthread_mutex_t done_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t done_cv;
static pthread_once_t done_once = PTHREAD_ONCE_INIT;

static void done_cv_init(void) { clock_monotonic_cond_init(&done_cv); }

/* ---------- what concurrent hosts share: one teller at a time ---------- */

static void locked_call_started(void *ctx, const char *op, const json_t *args)
{
    member_env *env = ctx;
    pthread_mutex_lock(&env->out_mu);
    env->hc.call_started(env->hc.call_started_ctx, op, args);
    pthread_mutex_unlock(&env->out_mu);
}

static void locked_prompt_event(void *ctx, const json_t *event)
{
    member_env *env = ctx;
    pthread_mutex_lock(&env->out_mu);
    env->hc.prompt_event(env->hc.prompt_event_ctx, event);
    pthread_mutex_unlock(&env->out_mu);
}

/* ---------- one member's run, on its thread ---------- */

static int collect_record(void *ctx, const json_t *record, char **error)
{
    (void)error;
    host_member *m = ctx;
    json_array_push(m->records, json_copy(record));
    return 0;
}

static uint64_t member_seed(uint64_t seed, const host_member *m)
{
    uint64_t h = nested_mix64(seed ^ m->salt);
    return nested_seed(h, m->entry, m->input_json);
}

/* The words a paused member waits on: the input's prompt, the approval's target, the signal. */
static char *pending_words(const json_t *pending, const json_t *approval)
{
    if (approval) {
        const char *t = json_string_value(json_object_get(approval, "target"));
        return xasprintf("approval required: %s", t ? t : "?");
    }
    const char *fn = json_string_value(json_object_get(pending, "function"));
    const json_t *args = json_object_get(pending, "args");
    if (fn && !strcmp(fn, "input")) {
        const char *p = json_string_value(json_object_get(args, "prompt"));
        return xstrdup(p ? p : "");
    }
    if (fn && (!strcmp(fn, "signal") || !strcmp(fn, "poll_signal"))) {
        const char *n = json_string_value(json_object_get(args, "name"));
        return xasprintf("waiting on signal: %s", n ? n : "?");
    }
    if (fn && !strcmp(fn, "signal_any")) {
        const json_t *names = json_object_get(args, "names");
        buf b = {0};
        buf_puts(&b, "waiting on signal: ");
        for (size_t i = 0; json_is_array(names) && i < names->u.array.len; i++) {
            const char *n = json_string_value(names->u.array.items[i]);
            buf_printf(&b, "%s%s", i ? ", " : "", n ? n : "?");
        }
        return buf_steal(&b);
    }
    return xasprintf("waiting on `%s`", fn ? fn : "?");
}

static void finish(host_member *m, host_member_outcome *o)
{
    pthread_mutex_lock(&done_mu);
    m->out = *o;
    m->done = true;
    pthread_cond_broadcast(&done_cv);
    pthread_mutex_unlock(&done_mu);
}

/* ---------- the tree budget, as a member's host sees it ---------- */

static void member_stop(host_member *m);

static void stop_for_tree(void *ctx) { member_stop(ctx); }

/* The member's meter (host_config.tree_meter; depth is call_agent's chain, which a member does not
 * keep): report, take the charges, and end the tree when the members' sum crossed its limits. */
static tree_member *chain_at(host_member *m, int depth)
{
    tree_member *t = depth >= 0 && depth < MEMBER_CHAIN ? m->chain[depth] : NULL;
    return t ? t : m->tm;
}

static uint64_t member_meter(void *ctx, int depth, uint64_t ticks, uint64_t heap_bytes)
{
    host_member *m = ctx;
    tree_member *t = chain_at(m, depth);
    if (!t) return 0;
    uint64_t owed = tree_meter(t, ticks, heap_bytes);
    tree_budget *tb = m->env->tree;
    engine_limit_kind k = tree_check(tb);
    if (k != LIMIT_NONE && !tree_ended(tb)) {
        char *who = xasprintf("the member %s, with the runs alive beside it,", m->entry);
        char *msg = tree_limit_message(tb, k, who, NULL);
        tree_abort(tb, msg);
        free(who);
        free(msg);
    }
    return owed;
}

static void member_charge(void *ctx, int depth, uint64_t ticks)
{
    host_member *m = ctx;
    tree_member *t = chain_at(m, depth);
    if (t) tree_charge(t, ticks);
}

/* The first line of an engine's error (its message without the stack). */
/* One engine run of the member or of a nested agent it calls, on the member's thread: a worker of
 * its own when isolated (killed by the member's stop), else an engine thread (halted by it). */
static void member_engine(host_member *m, engine_config *cfg, host *h, engine_result *res)
{
    member_env *env = m->env;
    if (env->isolated) {
        isolate_options iso = env->iso;
        /* test-only: a member's worker spins in C, never polling (tests/cases_tree_members.py) */
        if (iso.selftest && !strcmp(iso.selftest, "nested_hang_spin")) iso.selftest = "hang_spin";
        iso.pin_cpu = false; /* members run side by side */
        iso.early = NULL;
        iso.watch_cancel = m->stop_fd >= 0;
        iso.cancel_fd = m->stop_fd;
        supervisor_run(cfg, h, &iso, res, NULL);
    } else {
        cfg->limits.stop = &m->stop; /* a busy loop ends at its next poll, not only at a host call */
        engine_run_on_thread(cfg, res);
    }
}

/* A member's call_agent (host_config.run_nested): the nested agent is a member of the tree below
 * the run that calls it, as in runner.c's run_nested, on a chain this member keeps (the run's own
 * chain belongs to the run's thread). */
static void member_nested_engine(void *ctx, engine_config *cfg, host *h, engine_result *res)
{
    member_engine(ctx, cfg, h, res);
}

static int member_run_nested(void *ctx, host *h, const char *entry, const char *input_json, char **output,
                             host_nested_end *end, char **error)
{
    host_member *m = ctx;
    member_env *env = m->env;
    engine_config cfg = env->base;
    cfg.mode = ENGINE_AGENT;
    cfg.entry = entry;
    cfg.input_json = input_json;
    cfg.seed = nested_seed(m->seed, entry, input_json);
    cfg.seam = host_seam(h);
    return nested_run(env->tree, chain_at(m, m->depth), m->chain, &m->depth, MEMBER_CHAIN, &cfg, h, entry,
                      member_nested_engine, m, output, end, error);
}

static void *member_main(void *arg)
{
    host_member *m = arg;
    member_env *env = m->env;
    host_member_outcome o = {.status = MEMBER_FAILED};
    m->records = json_array();

    host_config hc = env->hc;
    hc.anchor_seq = m->anchor_seq;
    hc.in_member = true;
    hc.member_user = m->user;
    hc.member_stop = &m->stop;
    hc.vfs_seed = m->vfs_seed; /* the caller's VFS as it was (NULL: empty), not the run's seed */
    if (m->default_model) hc.default_model = m->default_model;
    if (m->tool_allow) hc.tool_allow = m->tool_allow;
    if (m->workspace_root) hc.workspace_root = m->workspace_root;
    hc.answers = NULL;
    hc.n_answers = 0;
    hc.interactive = false; /* an input() pauses the member */
    hc.park = NULL;         /* and does not wait in it (host_new drops it in a member too) */
    hc.park_ctx = NULL;
    hc.run_dir = NULL;      /* it keeps no store of its own */
    hc.trace = NULL;        /* its spans are made when its records are merged (host_member_merge) */
    hc.call_started = env->hc.call_started ? locked_call_started : NULL;
    hc.call_started_ctx = env;
    hc.prompt_event = env->hc.prompt_event ? locked_prompt_event : NULL;
    hc.prompt_event_ctx = env;
    if (m->tm) { /* its own member of the tree; the nested agents it calls draw on the run's chain */
        hc.tree_meter = member_meter;
        hc.tree_charge = member_charge;
        hc.tree_ctx = m;
        hc.run_nested = member_run_nested;
        hc.nested_ctx = m;
        m->chain[0] = m->tm;
    }
    char *error = NULL;
    host *h = host_new(&hc, &error);
    if (!h) {
        o.error = xasprintf("the member %s could not start: %s", m->entry, error);
        free(error);
        if (m->tm) tree_leave(m->tm, 0), m->tm = NULL;
        o.records = m->records;
        m->records = NULL;
        finish(m, &o);
        return NULL;
    }
    calllog *log = host_calllog(h);
    int rc = 0;
    if (m->records_in) rc = calllog_load_records(log, m->records_in, "the member's records", &error);
    if (rc == 0) {
        calllog_set_mode(log, m->records_in ? LOG_REPLAY_THEN_LIVE : LOG_LIVE);
        calllog_start_after(log, m->seq_base);
        if (m->n_queued) calllog_queue_seqs(log, m->queued, m->n_queued);
        calllog_set_sink(log, collect_record, m);
        for (size_t i = 0; json_is_array(m->approvals) && i < m->approvals->u.array.len; i++) {
            const json_t *a = m->approvals->u.array.items[i];
            const char *target = json_string_value(json_object_get(a, "target"));
            if (target && json_object_get(a, "args")) host_approve(h, target, json_object_get(a, "args"));
        }
    }
    if (rc != 0) {
        o.error = xasprintf("the member %s could not start: %s", m->entry, error);
        free(error);
    } else {
        engine_config cfg = env->base;
        cfg.mode = ENGINE_AGENT;
        cfg.entry = m->entry;
        cfg.input_json = m->input_json;
        cfg.seed = member_seed(env->base.seed, m);
        cfg.seam = host_seam(h);
        if (m->tm) cfg.limits = m->grant; /* its share of the tree's: the engine, the backstop and the cgroup follow it */
        m->seed = cfg.seed;
        engine_result res;
        member_engine(m, &cfg, h, &res);
        bool stopped = atomic_load(&m->stop) != 0;
        o.ticks = res.ticks;
        if (m->tm) {
            tree_budget *tb = env->tree;
            tree_leave(m->tm, res.ticks); /* its ticks go to its caller; its memory is free */
            m->tm = NULL;
            if (res.status == RUN_FAILED && !stopped && !host_aborted(h) &&
                (res.limit == LIMIT_BUDGET || res.limit == LIMIT_DEADLINE || res.limit == LIMIT_MEMORY)) {
                /* it crossed its grant, so the tree's limit: the whole tree ends */
                char *who = xasprintf("the member %s", m->entry), *detail = nested_first_line(res.error);
                char *msg = tree_limit_message(tb, res.limit, who, detail);
                tree_abort(tb, msg);
                free(who);
                free(detail);
                free(res.error);
                res.error = msg;
            } else if (stopped && tree_ended(tb)) {
                stopped = false; /* failed with the tree's message, not a stop of its caller */
                res.status = RUN_FAILED;
                free(res.error);
                res.error = xstrdup(tree_ended(tb));
            }
        }
        if (res.status == RUN_COMPLETED && !stopped) {
            o.status = MEMBER_COMPLETED;
            o.output_json = res.output_json;
            res.output_json = NULL;
        } else if (res.status == RUN_PAUSED && !stopped && host_pending(h)) {
            o.status = MEMBER_PAUSED;
            o.pending = json_copy(host_pending(h));
            o.pending_approval = host_pending_approval(h) ? json_copy(host_pending_approval(h)) : NULL;
            o.pending_prompt = pending_words(o.pending, o.pending_approval);
        } else if (stopped) {
            o.status = MEMBER_STOPPED;
            o.error = xasprintf("the member %s was stopped", m->entry);
        } else {
            o.status = MEMBER_FAILED;
            o.error = res.error ? res.error : xstrdup("the member failed");
            res.error = NULL;
        }
        o.live_calls = host_live_calls(h);
        o.seed = cfg.seed;
        o.clock_start_ms = cfg.clock_start_ms;
        engine_result_free(&res);
    }
    host_free(h);
    if (m->tm) { /* it never ran an engine */
        tree_leave(m->tm, 0);
        m->tm = NULL;
    }
    o.records = m->records;
    m->records = NULL;
    finish(m, &o);
    return NULL;
}

/* ---------- the interface (host/member.h) ---------- */

static void member_free(host_member *m);

/* The member of the tree that a member started by caller runs under (NULL: the tree's root). */
static tree_member *caller_member(member_env *env, host *caller)
{
    if (!caller) return env->run_member_at(env->run_tree_ctx, 0);
    void *ctx = host_tree_ctx(caller);
    if (ctx == env->run_tree_ctx) return env->run_member_at(ctx, host_nesting(caller));
    host_member *cm = ctx; /* a member's host: its tree_ctx is its host_member */
    return cm ? cm->tm : NULL;
}

/* Admit a member into the run's tree and grant it its share. A refusal ends the tree. */
static int admit(member_env *env, host *caller, const host_member_spec *spec, tree_member **out,
                 engine_limits *grant, char **error)
{
    *out = NULL;
    *grant = env->base.limits;
    tree_member *parent = caller_member(env, caller);
    int depth = !caller && spec->tree_depth > 0 ? spec->tree_depth : parent ? tree_member_depth(parent) + 1 : 1;
    if (!caller) parent = NULL; /* an actor's iteration: its spawner may end first, and it ends at no recorded
                                   point of its spawner's run, so the tree, not a run, is charged */
    char *why = NULL;
    engine_limit_kind crossed;
    tree_member *tm = NULL;
    if (tree_admit_at(env->tree, parent, depth, &tm, &why) == 0 &&
        tree_grant(env->tree, tm, spec->share ? spec->share : 1, grant, &crossed, &why) != 0) {
        tree_leave(tm, 0);
        tm = NULL;
    }
    if (!tm) {
        tree_abort(env->tree, why); /* a refusal is a tree limit (tree_budget.h): the first message wins */
        *error = xasprintf("%s (starting %s)", tree_ended(env->tree), spec->entry);
        free(why);
        return -1;
    }
    *out = tm;
    return 0;
}

static host_member *member_start(void *ctx, host *caller, const host_member_spec *spec, char **error)
{
    member_env *env = ctx;
    pthread_once(&done_once, done_cv_init);
    if (!spec->entry || !spec->input_json || spec->seq_end <= spec->seq_base + 1) {
        *error = xstrdup("a member needs an entry, an input and a range of seqs");
        return NULL;
    }
    /* the tree budget: admitted (depth, live members) and granted its share, or refused (the tree ends) */
    tree_member *tm = NULL;
    engine_limits grant = env->base.limits;
    if (env->tree && admit(env, caller, spec, &tm, &grant, error) != 0) return NULL;
    host_member *m = xcalloc(1, sizeof *m);
    m->tm = tm;
    m->grant = grant;
    m->env = env;
    m->entry = xstrdup(spec->entry);
    m->input_json = xstrdup(spec->input_json);
    m->vfs_seed = spec->vfs_seed ? json_copy(spec->vfs_seed) : NULL;
    m->records_in = spec->records ? json_copy(spec->records) : NULL;
    m->approvals = spec->approvals ? json_copy(spec->approvals) : NULL;
    m->default_model = spec->default_model ? xstrdup(spec->default_model) : NULL;
    m->workspace_root = spec->workspace_root ? xstrdup(spec->workspace_root) : NULL;
    m->tool_allow = spec->tool_allow ? json_copy(spec->tool_allow) : NULL;
    if (spec->n_queued) {
        m->queued = xcalloc(spec->n_queued, sizeof *m->queued);
        memcpy(m->queued, spec->queued, spec->n_queued * sizeof *m->queued);
        m->n_queued = spec->n_queued;
    }
    m->anchor_seq = spec->anchor_seq;
    m->seq_base = spec->seq_base;
    m->seq_end = spec->seq_end;
    m->salt = spec->salt;
    m->user = spec->user;
    m->on_stop = spec->on_stop;
    atomic_init(&m->stop, 0);
    m->stop_fd = env->isolated ? eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK) : -1;
    if (m->tm) tree_on_stop(m->tm, stop_for_tree, m); /* the tree's end stops it: kill its worker, halt its engine */
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, (size_t)8 << 20); /* the host's side of its calls runs here */
    int e = pthread_create(&m->thread, &attr, member_main, m);
    pthread_attr_destroy(&attr);
    if (e != 0) {
        *error = xasprintf("cannot start a thread for the member %s: %s", spec->entry, strerror(e));
        if (m->tm) tree_leave(m->tm, 0), m->tm = NULL;
        member_free(m);
        return NULL;
    }
    m->started = true;
    return m;
}

static void member_stop(host_member *m)
{
    if (!m || atomic_exchange(&m->stop, 1)) return;
    if (m->stop_fd >= 0) {
        uint64_t one = 1;
        if (write(m->stop_fd, &one, sizeof one) < 0) {
            /* the flag alone still ends it at its next call */
        }
    }
    if (m->on_stop) m->on_stop(m->user);
}

static bool run_cancelled(const member_env *env) { return env->hc.cancel && atomic_load(env->hc.cancel); }

/* Wait until one of ms[0..n) is done (under done_mu): its index, or -1 on timeout. */
static int wait_some(host_member *const *ms, size_t n, int64_t timeout_ms)
{
    int64_t end = timeout_ms >= 0 ? clock_monotonic_ms() + timeout_ms : 0;
    pthread_mutex_lock(&done_mu);
    for (;;) {
        for (size_t i = 0; i < n; i++)
            if (ms[i] && ms[i]->done) {
                pthread_mutex_unlock(&done_mu);
                return (int)i;
            }
        int64_t left = timeout_ms >= 0 ? end - clock_monotonic_ms() : WAIT_SLICE_MS;
        if (left <= 0) break;
        for (size_t i = 0; i < n; i++) /* a cancelled run ends what it waits for */
            if (ms[i] && run_cancelled(ms[i]->env) && !atomic_load(&ms[i]->stop)) {
                pthread_mutex_unlock(&done_mu);
                member_stop(ms[i]);
                pthread_mutex_lock(&done_mu);
            }
        struct timespec until = clock_monotonic_after_ms(left < WAIT_SLICE_MS ? left : WAIT_SLICE_MS);
        pthread_cond_timedwait(&done_cv, &done_mu, &until);
    }
    pthread_mutex_unlock(&done_mu);
    return -1;
}

static void join_thread(host_member *m)
{
    if (m->started && !m->joined) {
        pthread_join(m->thread, NULL);
        m->joined = true;
    }
}

static bool member_wait(host_member *m, int64_t timeout_ms)
{
    pthread_once(&done_once, done_cv_init);
    host_member *one[1] = {m};
    if (wait_some(one, 1, timeout_ms) < 0) return false;
    join_thread(m);
    return true;
}

static int member_wait_any(host_member *const *ms, size_t n, int64_t timeout_ms)
{
    pthread_once(&done_once, done_cv_init);
    int i = wait_some(ms, n, timeout_ms);
    if (i >= 0) join_thread(ms[i]);
    return i;
}

static const host_member_outcome *member_outcome(host_member *m)
{
    pthread_mutex_lock(&done_mu);
    bool done = m->done;
    pthread_mutex_unlock(&done_mu);
    return done ? &m->out : NULL;
}

static void member_free(host_member *m)
{
    if (!m) return;
    if (m->started) {
        if (!member_outcome(m)) member_stop(m); /* on_stop is told only while it runs */
        member_wait(m, -1);
    }
    free(m->entry);
    free(m->input_json);
    json_free(m->vfs_seed);
    json_free(m->records_in);
    json_free(m->approvals);
    free(m->default_model);
    free(m->workspace_root);
    json_free(m->tool_allow);
    json_free(m->records);
    free(m->queued);
    if (m->stop_fd >= 0) close(m->stop_fd);
    free(m->out.output_json);
    free(m->out.error);
    json_free(m->out.pending);
    json_free(m->out.pending_approval);
    free(m->out.pending_prompt);
    json_free(m->out.records);
    free(m);
}

static const char *env_tree_ended(void *ctx)
{
    member_env *env = ctx;
    return env->tree ? tree_ended(env->tree) : NULL;
}

void member_env_init(member_env *env, const engine_config *base, const host_config *hc, bool isolated,
                     const isolate_options *iso)
{
    memset(env, 0, sizeof *env);
    env->base = *base;
    env->hc = *hc;
    env->isolated = isolated;
    if (iso) env->iso = *iso;
    pthread_mutex_init(&env->out_mu, NULL);
    env->ops = (host_members){
        .start = member_start,
        .wait = member_wait,
        .wait_any = member_wait_any,
        .stop = member_stop,
        .outcome = member_outcome,
        .free = member_free,
        .tree_ended = env_tree_ended,
        .ctx = env,
    };
    env->hc.members = &env->ops;
}

void member_env_clear(member_env *env) { pthread_mutex_destroy(&env->out_mu); }

void member_env_set_tree(member_env *env, tree_budget *tree, void *run_tree_ctx,
                         tree_member *(*run_member_at)(void *ctx, int depth))
{
    env->tree = tree;
    env->run_tree_ctx = run_tree_ctx;
    env->run_member_at = run_member_at;
}
