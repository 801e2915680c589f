/* host.c — the seam (see host.h): args in their one form → replay lookup → policy gate → perform
 * → append.
 *
 * Owns the run context (project root, call log, answers, nesting). Trusts nothing in op names or
 * args: both come from guest code (or, under isolation, from a worker that may be compromised).
 * Unknown ops and non-object args are errors, never crashes.
 */
#define _GNU_SOURCE
#include "host/host_internal.h"
#include "util/clock.h"
#include "host/ops.h"
#include "host/mcp.h"
#include "settings/settings.h"
#include "util/buf.h"

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
    h->state_dir = cfg->state_dir ? xstrdup(cfg->state_dir) : xasprintf("%s/.chidori", root);
    h->settings = cfg->settings;
    const char *ws = cfg->workspace_root ? cfg->workspace_root : settings_text(cfg->settings, "CHIDORI_WORKSPACE_ROOT");
    h->workspace_root = ws && *ws ? realpath(ws, NULL) : xstrdup(root);
    if (!h->workspace_root) h->workspace_root = xstrdup(ws); /* reported when first used */
    h->log_out = cfg->log_out ? cfg->log_out : stderr;
    h->console_out = cfg->console_out ? cfg->console_out : stderr;
    h->log = calllog_new();
    h->n_answers = cfg->n_answers;
    h->answers = xcalloc(cfg->n_answers + 1, sizeof(char *));
    for (size_t i = 0; i < cfg->n_answers; i++) h->answers[i] = xstrdup(cfg->answers[i]);
    h->interactive = cfg->interactive;
    h->run_nested = cfg->run_nested;
    h->nested_ctx = cfg->nested_ctx;
    llm_config_from_settings(&h->llm, cfg->settings);
    h->policy = cfg->policy;
    h->session_policy = cfg->session_policy;
    h->approvals_can_suspend = cfg->approvals_can_suspend;
    h->auto_approve = settings_flag(cfg->settings, "CHIDORI_POLICY_AUTO_APPROVE") && !cfg->approvals_can_suspend;
    h->cancel = cfg->cancel;
    h->memory = cfg->memory;
    h->max_nested_runs = (int)settings_u64(cfg->settings, "CHIDORI_MAX_NESTED_RUNS");
    h->http = http_settings_new(cfg->settings, error);
    if (!h->http) {
        host_free(h);
        return NULL;
    }
    h->vfs_limits.max_bytes = cfg->vfs_max_bytes ? cfg->vfs_max_bytes : VFS_DEFAULT_MAX_BYTES;
    h->vfs_limits.max_nodes = VFS_DEFAULT_MAX_NODES;
    h->vfs_clock_ms = cfg->vfs_clock_ms;
    h->fs_disabled = cfg->fs_disabled;
    if (cfg->vfs_seed) h->vfs_seed = json_copy(cfg->vfs_seed);
    if (!h->fs_disabled && h->vfs_seed && !host_vfs(h, error)) { /* a bad seed fails before the run */
        host_free(h);
        return NULL;
    }
    return h;
}

void host_free(host *h)
{
    if (!h) return;
    calllog_free(h->log);
    mcp_hub_free(h->mcp); /* clean shutdown of every MCP server this run started */
    if (h->root_fd >= 0) close(h->root_fd);
    for (size_t i = 0; i < h->n_answers; i++) free(h->answers[i]);
    free(h->answers);
    json_free(h->pending);
    json_free(h->approvals);
    json_free(h->pending_approval);
    free(h->abort_reason);
    free(h->project_root);
    free(h->state_dir);
    free(h->workspace_root);
    http_settings_free(h->http);
    for (int d = 0; d <= HOST_MAX_NESTING; d++) host_vfs_release(h, d);
    json_free(h->vfs_seed);
    free(h);
}

calllog *host_calllog(host *h) { return h->log; }

int host_call_seam(void *h, const char *op, const json_t *args, json_t **result, char **error)
{
    return host_call(h, op, args, result, error);
}
bool host_aborted(const host *h) { return h->aborted; }
const char *host_abort_reason(const host *h) { return h->abort_reason; }
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



/* A recorded outcome handed back as if performed. */
static int replayed(const call_record *rec, json_t **result, char **error)
{
    if (rec->error) {
        *error = xstrdup(rec->error);
        return HOST_ERROR;
    }
    *result = json_copy(rec->result);
    return HOST_OK;
}

/* The run pauses at this call (an input nobody can answer, or the replay of a paused run reaching
 * the call it paused on): pending says where, for resume. */
static int suspend_at(host *h, uint64_t seq, const char *name, const json_t *args)
{
    if (!h->pending) { /* the innermost call that paused (a nested agent's input) */
        h->pending = json_object();
        json_object_set(h->pending, "seq", json_number((double)seq));
        if (h->parent_seq) json_object_set(h->pending, "parent_seq", json_number((double)h->parent_seq));
        json_object_set(h->pending, "function", json_string(name));
        json_object_set(h->pending, "args", json_copy(args));
        json_t *open = json_array();
        for (size_t i = 0; i < h->n_open_calls; i++) json_array_push(open, json_number((double)h->open_calls[i]));
        json_object_set(h->pending, "open_calls", open);
    }
    return HOST_SUSPEND;
}

static int call_op(host *h, const host_op *op, const char *name, const json_t *args, const json_t *raw,
                   char *invalid, json_t **result, char **error);

int host_call(host *h, const char *name, const json_t *args, json_t **result, char **error)
{
    *result = NULL;
    *error = NULL;
    if (!h->aborted && h->cancel && atomic_load(h->cancel)) {
        h->aborted = true;
        h->abort_reason = xstrdup("the run was cancelled");
    }
    if (h->aborted || h->pending) {
        /* The run has ended (a divergence, an unwritable log, a pause): nothing more is performed,
         * whatever a (possibly compromised) worker still asks for. */
        *error = xstrdup(h->aborted ? "the run has already been ended by the host" : "the run is paused");
        return HOST_ABORT;
    }
    const host_op *op = host_op_find(name);
    if (!op) {
        *error = xasprintf("unknown host operation `%s`", name);
        return HOST_ERROR;
    }
    if (!json_is_object(args)) {
        *error = xasprintf("host operation `%s` takes an object of arguments", name);
        return HOST_ERROR;
    }
    /* 0. the args in their one form (e.g. the normalized URL): looked up, gated, performed and
     *    recorded as such; args that have none fail the call (recorded) */
    json_t *prepared = NULL;
    char *invalid = NULL;
    if (op->prepare) prepared = op->prepare(args, &invalid);
    int rc = call_op(h, op, name, prepared ? prepared : args, args, invalid, result, error);
    json_free(prepared);
    return rc;
}

static int call_op(host *h, const host_op *op, const char *name, const json_t *args, const json_t *raw,
                   char *invalid, json_t **result, char **error)
{
    /* 1. replay lookup */
    uint64_t seq = 0;
    if (op->flags & OP_RECORDED) {
        const call_record *rec;
        switch (calllog_lookup(h->log, h->parent_seq, name, args, &rec, &seq, error)) {
        case LOOKUP_REPLAYED: free(invalid); return replayed(rec, result, error);
        case LOOKUP_FAILED:
            /* a log recorded before the args had their one form (an http URL as the agent spelled
             * it) still replays: the record of the agent's own args answers */
            if (raw != args && calllog_peek(h->log, h->parent_seq)) { /* a divergence, not past the end */
                char *again = NULL;
                lookup_outcome o = calllog_lookup(h->log, h->parent_seq, name, raw, &rec, &seq, &again);
                free(again);
                if (o == LOOKUP_REPLAYED) {
                    free(*error);
                    *error = NULL;
                    free(invalid);
                    return replayed(rec, result, error);
                }
            }
            free(invalid);
            h->aborted = true;
            free(h->abort_reason);
            h->abort_reason = xstrdup(*error);
            return HOST_ABORT;
        case LOOKUP_PAUSED: free(invalid); return suspend_at(h, seq, name, args);
        case LOOKUP_LIVE: break;
        }
    }
    if (!strcmp(name, "call_agent")) host_count_call_agent(h); /* the nested-run cap (effects/agent.c) */

    /* 2. policy gate (a denial is recorded like any failed call, below) */
    int64_t started_at = clock_realtime_ms();
    double t0 = clock_monotonic_ns() / 1e6;
    int rc = invalid ? (*error = invalid, HOST_ERROR) : (op->flags & OP_GATED) ? host_gate(h, name, args, error) : HOST_OK;

    /* 3. perform */
    if (rc == HOST_OK) {
        uint64_t outer_call = h->call_seq;
        h->call_seq = seq;
        rc = op->perform(h, args, result, error);
        h->call_seq = outer_call;
    }
    double duration = clock_monotonic_ns() / 1e6 - t0;
    if (rc == HOST_SUSPEND) {
        json_free(*result);
        *result = NULL;
        return suspend_at(h, seq, name, args);
    }
    if (rc == HOST_OK && !*result) *result = json_null();
    if (rc != HOST_OK && !*error) *error = xasprintf("host operation `%s` failed", name);

    /* 4. append (an effect that happened but cannot be recorded ends the run) */
    if ((op->flags & OP_RECORDED) && rc != HOST_ABORT) {
        char *io = NULL;
        if (calllog_append(h->log, seq, h->parent_seq, name, args, rc == HOST_OK ? *result : NULL,
                           rc == HOST_OK ? NULL : *error, duration, started_at, &io) != 0) {
            free(*error);
            *error = io;
            rc = HOST_ABORT;
        }
    }
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
    if (strcmp(fn->u.string.bytes, "input") != 0) {
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
    /* pending state is a file anyone could have edited: it must agree with the log */
    if (calllog_check_pending(h->log, pseq, pparent, queued, n, error) < 0) return -1;
    calllog_queue_seqs(h->log, queued, n);
    json_t *answer = json_string(response);
    /* the answer is replayed like any record: it is kept, unconsumed */
    int rc = calllog_append_for_replay(h->log, pseq, pparent, "input", args, answer, clock_realtime_ms(), error);
    json_free(answer);
    return rc;
}
