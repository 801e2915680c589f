/* host.c — the seam (see host.h): args in their one form → replay lookup → policy gate → perform
 * → append.
 *
 * Owns the seam's own state (host_internal.h): the run's folder and streams, the call log, the
 * nesting, the end of the run, and one state per effect module, made and freed through the module
 * list (ops.h) without knowing any module. Trusts nothing in op names or args: both come from
 * guest code (or, under isolation, from a worker that may be compromised). Unknown ops and
 * non-object args are errors, never crashes; an internal op (module loads) is performed only when
 * it comes through host_internal_call, never through host_call.
 */
#define _GNU_SOURCE
#include "host/effects/module_resolve.h"
#include "host/host_internal.h"
#include "host/ops.h"
#include "host/record_form.h"
#include "util/buf.h"
#include "util/clock.h"
#include "settings/settings.h"
#include "telemetry/otel.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

host *host_new(const host_config *cfg, char **error)
{
    char *root = realpath(cfg->project_root ? cfg->project_root : ".", NULL);
    if (!root) {
        *error = xasprintf("cannot use project folder %s: %s", cfg->project_root, strerror(errno));
        return NULL;
    }
    int fd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
        *error = xasprintf("cannot open project folder %s: %s", root, strerror(errno));
        free(root);
        return NULL;
    }
    host *h = xcalloc(1, sizeof *h);
    h->project_root = root;
    h->root_fd = fd;
    h->log_out = cfg->log_out ? cfg->log_out : stderr;
    h->console_out = cfg->console_out ? cfg->console_out : stderr;
    h->call_started = cfg->call_started;
    h->call_started_ctx = cfg->call_started_ctx;
    h->prompt_event = cfg->prompt_event;
    h->prompt_event_ctx = cfg->prompt_event_ctx;
    h->log = calllog_new();
    h->last_stamp_ms = clock_realtime_ms(); /* no call's timestamp comes before the run's host */
    h->settings = cfg->settings;
    h->policy = cfg->policy;
    h->session_policy = cfg->session_policy;
    h->approvals_can_suspend = cfg->approvals_can_suspend;
    h->auto_approve = settings_flag(cfg->settings, "CHIDORI_POLICY_AUTO_APPROVE") && !cfg->approvals_can_suspend;
    h->cancel = cfg->cancel;
    h->trace = cfg->trace;
    h->trace_replayed = cfg->trace_replayed;
    h->members = cfg->members;
    h->anchor_seq = cfg->anchor_seq;
    h->parent_seq = cfg->anchor_seq; /* a member's top-level calls nest under the call that started it */
    h->in_member = cfg->in_member;
    h->park = cfg->in_member ? NULL : cfg->park;
    h->park_ctx = cfg->park_ctx;
    h->member_user = cfg->member_user;
    h->member_stop = cfg->member_stop;
    h->run_id = cfg->run_id ? xstrdup(cfg->run_id) : NULL;
    h->run_dir = cfg->run_dir ? xstrdup(cfg->run_dir) : NULL;
    h->tree_meter = cfg->tree_meter;
    h->tree_charge = cfg->tree_charge;
    h->tree_ctx = cfg->tree_ctx;
    /* each module's own state, in the list's order (a bad setting of one fails the host) */
    h->module_states = xcalloc(effect_module_count() + 1, sizeof *h->module_states);
    for (size_t i = 0; effect_modules[i]; i++) {
        const effect_module *m = effect_modules[i];
        if (m->init && m->init(h, cfg, &h->module_states[i], error) != 0) {
            host_free(h);
            return NULL;
        }
    }
    return h;
}

static void free_host(host *h, bool exiting)
{
    if (!h) return;
    if (exiting) calllog_free_at_exit(h->log);
    else calllog_free(h->log);
    /* modules in reverse order (the MCP servers of the run are shut down cleanly here) */
    for (size_t i = effect_module_count(); h->module_states && i-- > 0;)
        if (effect_modules[i]->free && h->module_states[i]) effect_modules[i]->free(h->module_states[i]);
    free(h->module_states);
    if (h->root_fd >= 0) close(h->root_fd);
    json_free(h->pending);
    json_free(h->approvals);
    json_free(h->pending_approval);
    free(h->abort_reason);
    json_free(h->record_extra);
    free(h->project_root);
    free(h->run_id);
    free(h->run_dir);
    free(h);
}

void host_free(host *h) { free_host(h, false); }

void host_free_at_exit(host *h)
{
#if defined(__SANITIZE_ADDRESS__)
    free_host(h, false);
#else
    free_host(h, true);
#endif
}

void *host_module_state(host *h, const effect_module *m)
{
    if (!h || !h->module_states) return NULL;
    for (size_t i = 0; effect_modules[i]; i++)
        if (effect_modules[i] == m) return h->module_states[i];
    return NULL;
}

void host_nest_enter(host *h)
{
    h->parent_seq = h->call_seq;
    h->depth++;
    for (size_t i = 0; effect_modules[i]; i++)
        if (effect_modules[i]->nest) effect_modules[i]->nest(h->module_states[i], h->depth);
    h->open_calls[h->n_open_calls++] = h->call_seq;
}

void host_nest_leave(host *h)
{
    for (size_t i = 0; effect_modules[i]; i++)
        if (effect_modules[i]->nest) effect_modules[i]->nest(h->module_states[i], h->depth);
    h->n_open_calls--;
    h->depth--;
    h->parent_seq = h->n_open_calls ? h->open_calls[h->n_open_calls - 1] : h->anchor_seq;
}

calllog *host_calllog(host *h) { return h->log; }

int host_call_seam(void *h, const char *op, const json_t *args, json_t **result, char **error)
{
    return host_call(h, op, args, result, error);
}

/* The internal entry of an engine in this process (never a worker's: the supervisor calls
 * host_internal_call). Only here may compiled bytecode be handed back for the cache, since only
 * this engine is as trusted as the host (effects/module_load.c, offer_bytecode). */
static int internal_call_seam(void *hp, const char *op, const json_t *args, json_t **result, char **error)
{
    host *h = hp;
    if (strcmp(op, "__module_cache_put") == 0) return module_cache_put_local(h, args, result, error);
    bool was = h->engine_local;
    h->engine_local = true;
    int rc = host_internal_call(h, op, args, result, error);
    h->engine_local = was;
    return rc;
}

uint64_t host_meter(host *h, uint64_t ticks, uint64_t heap_bytes)
{
    return h->tree_meter ? h->tree_meter(h->tree_ctx, h->depth, ticks, heap_bytes) : 0;
}

void *host_tree_ctx(const host *h) { return h ? h->tree_ctx : NULL; }
int host_nesting(const host *h) { return h ? h->depth : 0; }

void host_charge_back(host *h, uint64_t ticks)
{
    if (ticks && h->tree_charge) h->tree_charge(h->tree_ctx, h->depth, ticks);
}

static uint64_t meter_seam(void *h, uint64_t ticks, uint64_t heap_bytes) { return host_meter(h, ticks, heap_bytes); }

seam host_seam(host *h)
{
    return (seam){.call = host_call_seam, .ctx = h, .internal = internal_call_seam, .meter = meter_seam};
}
bool host_aborted(const host *h) { return h->aborted; }
const char *host_abort_reason(const host *h) { return h->abort_reason; }
uint64_t host_diverged_at(const host *h) { return h->diverged_at; }
size_t host_live_calls(const host *h) { return h->live_calls; }
const json_t *host_pending(const host *h) { return h->pending; }
const json_t *host_pending_approval(const host *h) { return h->pending_approval; }

void host_approve(host *h, const char *target, const json_t *args)
{
    if (!h->approvals) h->approvals = json_array();
    json_t *a = json_object();
    json_object_set(a, "target", json_string(target));
    json_object_set(a, "args", json_copy(args));
    json_array_push(h->approvals, a);
}
size_t host_record_count(const host *h) { return calllog_count(h->log); }

const char *host_arg_string(const json_t *args, const char *name, char **error)
{
    const json_t *v = json_object_get(args, name);
    const char *s = json_string_value(v);
    if (!s) *error = xasprintf("missing string argument `%s`", name);
    else if (strlen(s) != v->u.string.len) *error = xasprintf("argument `%s` contains a NUL character", name), s = NULL;
    return s;
}

/* A recorded outcome handed back as if performed (an op with a record form rebuilds its result
 * from the record; a legacy record holds it as performed). */
/* A record's own keys that the seam acts on when it replays it: `tree_ticks`, CPU ticks a nested run
 * spent on the run's behalf (charged to it again, so a replay stops where the run did), and
 * `ends_run`, a failed call that ended the run (a limit of its tree budget): it ends it again. */
static int replayed(host *h, const op_def *op, const call_record *rec, json_t **result, char **error)
{
    const json_t *ticks = rec->extra ? json_object_get(rec->extra, "tree_ticks") : NULL;
    if (ticks && ticks->type == JSON_NUMBER && ticks->u.number >= 0 && ticks->u.number <= 9007199254740991.0 &&
        h->tree_charge)
        h->tree_charge(h->tree_ctx, h->depth, (uint64_t)ticks->u.number);
    const json_t *ends = rec->error && rec->extra ? json_object_get(rec->extra, "ends_run") : NULL;
    if (ends && ends->type == JSON_TRUE) {
        *error = xstrdup(rec->error);
        h->aborted = true;
        free(h->abort_reason);
        h->abort_reason = xstrdup(rec->error);
        return HOST_ABORT;
    }
    return host_recorded_outcome(op, rec, result, error);
}

int host_recorded_outcome(const op_def *op, const call_record *rec, json_t **result, char **error)
{
    if (rec->error) {
        *error = xstrdup(rec->error);
        return HOST_ERROR;
    }
    *result = op->record && !rec->legacy ? op->record->decode(rec) : json_copy(rec->result);
    return HOST_OK;
}

/* The replay lookup's question: does this record answer a call of op with args? Ours: the op's
 * form decides, or the args must be equal; the original's, of an op without a form: its rule
 * (keys on both sides equal, a key on one side only ignored; record_form.h). */
static bool record_answers(const call_record *rec, const json_t *args, void *ctx)
{
    const op_def *op = ctx;
    if (op->record && !rec->legacy) return op->record->matches(rec, args);
    if (!rec->ours) return record_args_agree(call_record_args(rec), args, false);
    return call_record_args_equal(rec, args);
}

/* Where a run waits at this call: {seq, parent_seq, function, args, open_calls}, what resume reads. */
static json_t *pending_at(const host *h, uint64_t seq, const char *name, const json_t *args)
{
    json_t *p = json_object();
    json_object_set(p, "seq", json_number((double)seq));
    if (h->parent_seq) json_object_set(p, "parent_seq", json_number((double)h->parent_seq));
    json_object_set(p, "function", json_string(name));
    json_object_set(p, "args", json_copy(args));
    json_t *open = json_array();
    for (size_t i = 0; i < h->n_open_calls; i++) json_array_push(open, json_number((double)h->open_calls[i]));
    json_object_set(p, "open_calls", open);
    return p;
}

/* The run pauses at this call (an input nobody can answer, or the replay of a paused run reaching
 * the call it paused on): pending says where, for resume. */
static int suspend_at(host *h, uint64_t seq, const char *name, const json_t *args)
{
    if (!h->pending) h->pending = pending_at(h, seq, name, args); /* the innermost call that paused */
    return HOST_SUSPEND;
}

/* A pause the run may wait out instead (host_config.park): an input nobody could answer or a signal
 * not sent yet (approval NULL), or a gated call waiting for an approval (approval is
 * h->pending_approval). HOST_OK when the wait ended well: the input's answer as *result (as given,
 * as a resume records it: no default applied), a signal's call to be performed again (it takes what
 * was handed to its seq), or the call approved, remembered like an approved re-run's (host_approve),
 * and no longer pending. Else HOST_SUSPEND: the run pauses as before. */
static int park_at(host *h, uint64_t seq, const char *name, const json_t *args, const json_t *approval,
                   bool wake, json_t **result)
{
    /* a live actor would go on working while the session is stored as waiting, and then again in
     * the replay if the park's time ran out: such a run pauses the replay way, which stops them */
    if (actors_any_running(h)) return HOST_SUSPEND;
    json_t *pending = pending_at(h, seq, name, args);
    char *response = NULL;
    int got = h->park(h->park_ctx, h, pending, approval, &response);
    json_free(pending);
    if (got != 1 || (!approval && !wake && !response)) {
        free(response);
        return HOST_SUSPEND;
    }
    if (approval) {
        host_approve(h, json_string_value(json_object_get(approval, "target")) ?: "", json_object_get(approval, "args"));
        json_free(h->pending_approval);
        h->pending_approval = NULL;
    } else if (!wake) {
        json_free(*result);
        *result = json_string(response);
    }
    free(response);
    return HOST_OK;
}

static int call_op(host *h, const op_def *op, const char *name, const json_t *args, const json_t *raw,
                   char *invalid, json_t **result, char **error);

/* Both entries: `internal` says which one the call came through. */
static int dispatch(host *h, const char *name, const json_t *args, bool internal, json_t **result, char **error)
{
    *result = NULL;
    *error = NULL;
    if (!h->aborted && h->cancel && atomic_load(h->cancel)) {
        h->aborted = true;
        h->abort_reason = xstrdup("the run was cancelled");
    }
    if (!h->aborted && h->member_stop && atomic_load(h->member_stop)) {
        h->aborted = true;
        h->abort_reason = xstrdup("stopped: the run that started this member asked it to stop");
    }
    if (h->aborted || h->pending) {
        /* The run has ended (a divergence, an unwritable log, a pause): nothing more is performed,
         * whatever a (possibly compromised) worker still asks for. */
        *error = xstrdup(h->aborted ? "the run has already been ended by the host" : "the run is paused");
        return HOST_ABORT;
    }
    const op_def *op = host_op_find(name, NULL);
    if (!op) {
        *error = xasprintf("unknown host operation `%s`", name);
        return HOST_ERROR;
    }
    /* chidori's own ops only through its own entry: whatever reaches host_call came from the
     * agent (or from a worker that may be compromised), never from the module loader */
    if (!internal && (op->flags & OP_INTERNAL)) {
        *error = xasprintf("host operation `%s` is chidori's own and cannot be called by an agent", name);
        return HOST_ERROR;
    }
    if (internal && !(op->flags & OP_INTERNAL)) {
        *error = xasprintf("host operation `%s` is not one of chidori's own", name);
        return HOST_ERROR;
    }
    if (!json_is_object(args)) {
        *error = xasprintf("host operation `%s` takes an object of arguments", name);
        return HOST_ERROR;
    }
    /* checks before a seq is taken: refused, nothing recorded */
    if (op->validate && (*error = op->validate(h, args))) return HOST_ERROR;
    /* 0. the args in their one form (e.g. the normalized URL): looked up, gated, performed and
     *    recorded as such; args that have none fail the call (recorded) */
    json_t *prepared = NULL;
    char *invalid = NULL;
    if (op->prepare_in) prepared = op->prepare_in(h, args, &invalid);
    else if (op->prepare) prepared = op->prepare(args, &invalid);
    int rc = call_op(h, op, name, prepared ? prepared : args, args, invalid, result, error);
    json_free(prepared);
    return rc;
}

int host_call(host *h, const char *name, const json_t *args, json_t **result, char **error)
{
    int rc = dispatch(h, name, args, false, result, error);
    h->stamp_ms = 0; /* for this call only */
    return rc;
}

void host_stamp_next_call(host *h, int64_t ms) { h->stamp_ms = ms; }

int host_internal_call(host *h, const char *name, const json_t *args, json_t **result, char **error)
{
    return dispatch(h, name, args, true, result, error);
}

static int call_op(host *h, const op_def *op, const char *name, const json_t *args, const json_t *raw,
                   char *invalid, json_t **result, char **error)
{
    /* 1. replay lookup */
    uint64_t seq = 0;
    if (op->flags & OP_RECORDED) {
        const call_record *rec;
        switch (calllog_lookup_match(h->log, h->parent_seq, name, op->flags & OP_NESTS, args, record_answers,
                                     (void *)op, &rec, &seq, error)) {
        case LOOKUP_REPLAYED:
            free(invalid);
            if (h->trace && h->trace_replayed) otel_run_call(h->trace, rec, true);
            return replayed(h, op, rec, result, error);
        case LOOKUP_FAILED:
            /* a log recorded before the args had their one form (an http URL as the agent spelled
             * it) still replays: the record of the agent's own args answers */
            if (raw != args && calllog_peek(h->log, h->parent_seq)) { /* a divergence, not past the end */
                char *again = NULL;
                lookup_outcome o = calllog_lookup_match(h->log, h->parent_seq, name, op->flags & OP_NESTS, raw,
                                                        record_answers, (void *)op, &rec, &seq, &again);
                free(again);
                if (o == LOOKUP_REPLAYED) {
                    if (h->trace && h->trace_replayed) otel_run_call(h->trace, rec, true);
                    free(*error);
                    *error = NULL;
                    free(invalid);
                    return replayed(h, op, rec, result, error);
                }
            }
            free(invalid);
            if (seq && !h->diverged_at) h->diverged_at = seq; /* a divergence (not a full log) */
            h->aborted = true;
            free(h->abort_reason);
            h->abort_reason = xstrdup(*error);
            return HOST_ABORT;
        case LOOKUP_PAUSED: free(invalid); return suspend_at(h, seq, name, args);
        case LOOKUP_LIVE:
            if (!(op->flags & OP_NESTS)) h->live_calls++;
            break;
        }
    }
    if (op->before_gate) op->before_gate(h); /* e.g. call_agent counts its runs (effects/agent.c) */
    if (h->call_started && (op->flags & OP_RECORDED)) h->call_started(h->call_started_ctx, name, args);

    /* trace records still waiting reach the disk before a call that may act outside the run */
    if ((op->flags & (OP_RECORDED | OP_TRACE)) == OP_RECORDED) {
        char *io = NULL;
        if (calllog_flush(h->log, &io) != 0) {
            free(invalid);
            *error = io;
            h->aborted = true;
            free(h->abort_reason);
            h->abort_reason = xstrdup(io);
            return HOST_ABORT;
        }
    }

    /* 2. policy gate (a denial is recorded like any failed call, below) */
    int64_t started_at = clock_realtime_ms();
    if (h->stamp_ms && h->stamp_ms >= h->last_stamp_ms && h->stamp_ms < started_at) started_at = h->stamp_ms;
    if (op->flags & OP_RECORDED) h->last_stamp_ms = started_at;
    double t0 = clock_monotonic_ns() / 1e6;
    int rc = invalid ? (*error = invalid, HOST_ERROR) : (op->flags & OP_GATED) ? host_gate(h, name, args, error) : HOST_OK;
    /* a call that waits for an approval, in a run that may wait for it live */
    if (rc == HOST_SUSPEND && h->park && h->pending_approval && !h->aborted && !h->pending)
        rc = park_at(h, seq, name, args, h->pending_approval, false, result);

    /* 3. perform */
    if (rc == HOST_OK) {
        uint64_t outer_call = h->call_seq;
        h->call_seq = seq;
        rc = op->perform(h, args, result, error);
        /* an input nobody could answer (not an approval's pause: that came from the gate) */
        if (rc == HOST_SUSPEND && h->park && (op->flags & OP_ANSWERABLE) && !h->aborted && !h->pending)
            rc = park_at(h, seq, name, args, NULL, false, result);
        /* a signal not sent yet: once one (or its timeout) is handed to this seq, performed again,
         * the call takes it (it pauses the run after all if nothing was) */
        if (rc == HOST_SUSPEND && h->park && (op->flags & OP_WAKEABLE) && !h->aborted && !h->pending &&
            park_at(h, seq, name, args, NULL, true, result) == HOST_OK) {
            json_free(*result), *result = NULL;
            free(*error), *error = NULL;
            rc = op->perform(h, args, result, error);
        }
        h->call_seq = outer_call;
    }
    json_t *own_extra = h->record_extra; /* what the perform function adds to its record */
    bool ends_run = h->end_after_record && rc == HOST_ERROR;
    h->record_extra = NULL;
    h->end_after_record = false;
    double duration = clock_monotonic_ns() / 1e6 - t0;
    if (rc == HOST_SUSPEND) {
        json_free(own_extra);
        json_free(*result);
        *result = NULL;
        return suspend_at(h, seq, name, args);
    }
    if (rc == HOST_OK && !*result) *result = json_null();
    if (rc != HOST_OK && !*error) *error = xasprintf("host operation `%s` failed", name);

    /* 4. append (an effect that happened but cannot be recorded ends the run) */
    if ((op->flags & OP_RECORDED) && rc != HOST_ABORT) {
        char *io = NULL;
        const json_t *done = rc == HOST_OK ? *result : NULL;
        json_t *rargs = NULL, *rresult = NULL, *usage = NULL, *extra = NULL; /* the record's form of the call */
        if (op->record) op->record->encode(args, done, &rargs, &rresult, &usage, &extra);
        if (own_extra || ends_run) {
            if (!extra) extra = json_object();
            for (size_t i = 0; own_extra && i < own_extra->u.object.len; i++)
                json_object_set(extra, own_extra->u.object.items[i].key, json_copy(own_extra->u.object.items[i].value));
            if (ends_run) json_object_set(extra, "ends_run", json_bool(true));
        }
        const json_t *wargs = rargs ? rargs : args, *wresult = op->record ? rresult : done;
        if ((op->flags & OP_TRACE ? calllog_append_trace : calllog_append_full)(
                h->log, seq, h->parent_seq, name, wargs, wresult, rc == HOST_OK ? NULL : *error, duration, started_at,
                usage, extra, &io) != 0) {
            free(*error);
            *error = io;
            rc = HOST_ABORT;
        } else if (h->trace) { /* its span, from what the record holds (telemetry/otel.c) */
            call_record rec = {.seq = seq, .parent_seq = h->parent_seq, .function = (char *)name, .args_tree = (json_t *)wargs,
                               .result = (json_t *)wresult, .error = rc == HOST_OK ? NULL : *error,
                               .duration_ms = duration, .timestamp_ms = started_at, .token_usage = usage, .extra = extra};
            otel_run_call(h->trace, &rec, false);
        }
        json_free(rargs);
        json_free(rresult);
        json_free(usage);
        json_free(extra);
        if (ends_run && rc == HOST_ERROR) rc = HOST_ABORT; /* recorded as failed; the run ends here */
    }
    json_free(own_extra);
    if (rc == HOST_ABORT && !h->aborted) {
        h->aborted = true;
        h->abort_reason = xstrdup(*error ? *error : "the host ended the run");
    }
    if (rc != HOST_OK) {
        json_free(*result);
        *result = NULL;
    }
    return rc;
}

int host_resume(host *h, const json_t *pending, const char *response, char **error)
{
    const json_t *seq = json_object_get(pending, "seq");
    const json_t *parent = json_object_get(pending, "parent_seq");
    const json_t *fn = json_object_get(pending, "function");
    const json_t *args = json_object_get(pending, "args");
    const json_t *open = json_object_get(pending, "open_calls");
    if (!seq || seq->type != JSON_NUMBER || !(seq->u.number >= 1 && seq->u.number <= 9007199254740991.0) ||
        seq->u.number != (double)(uint64_t)seq->u.number ||
        (parent && parent->type != JSON_NULL &&
         (parent->type != JSON_NUMBER || !(parent->u.number >= 0 && parent->u.number <= 9007199254740991.0) ||
          parent->u.number != (double)(uint64_t)parent->u.number)) ||
        !json_is_string(fn) || !json_is_object(args) ||
        (open && !json_is_array(open))) {
        *error = xstrdup("the run's pending call is malformed");
        return -1;
    }
    const op_def *paused = host_op_find(fn->u.string.bytes, NULL);
    if (!paused || !(paused->flags & OP_ANSWERABLE)) { /* only an input is answered */
        *error = xasprintf("the run is waiting for `%s`, not for an input", fn->u.string.bytes);
        return -1;
    }
    uint64_t queued[HOST_MAX_NESTING + 1];
    size_t n = 0;
    if (open && open->u.array.len > HOST_MAX_NESTING) {
        *error = xstrdup("the run's pending call is malformed: more open calls than agents can be nested");
        return -1;
    }
    for (size_t i = 0; open && i < open->u.array.len; i++) {
        const json_t *v = open->u.array.items[i];
        if (v->type != JSON_NUMBER || !(v->u.number >= 1 && v->u.number <= 9007199254740991.0) ||
            v->u.number != (double)(uint64_t)v->u.number) {
            *error = xstrdup("the run's pending call is malformed");
            return -1;
        }
        queued[n++] = (uint64_t)v->u.number;
    }
    uint64_t pseq = (uint64_t)seq->u.number, pparent = parent && parent->type == JSON_NUMBER ? (uint64_t)parent->u.number : 0;
    json_t *answer = json_string(response);
    int rc = calllog_answer_pending(h->log, pseq, pparent, queued, n, paused->name, args, answer, clock_realtime_ms(), error);
    json_free(answer);
    return rc;
}
