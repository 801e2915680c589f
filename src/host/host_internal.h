/* host_internal.h — the seam's own state for one run, shared by host.c, gate.c and the effect
 * modules only.
 *
 * struct host holds what the seam itself needs: the run's folder and output streams, the call
 * log and the nesting that addresses it, the gate's policy state, the end of the run, and one
 * state per effect module (ops.h). What a family keeps (its configuration, its servers, its
 * files) lives in its module's state, reached with host_module_state(h, &its_module).
 */
#ifndef CHIDORI_HOST_INTERNAL_H
#define CHIDORI_HOST_INTERNAL_H

#include "host/host.h"
#include "host/calllog.h"

typedef struct policy policy;

#define HOST_MAX_NESTING 8 /* call_agent depth */

struct host {
    char *project_root; /* real path, no trailing slash */
    int root_fd;        /* O_PATH descriptor of project_root: modules resolve beneath it */
    FILE *log_out;
    FILE *console_out;
    void (*call_started)(void *ctx, const char *op, const json_t *args); /* host_config's */
    void *call_started_ctx;
    void (*prompt_event)(void *ctx, const json_t *event); /* host_config's */
    void *prompt_event_ctx;
    calllog *log;
    const struct settings *settings; /* the edge's settings (not owned; NULL: defaults) */
    uint64_t parent_seq; /* seq of the call_agent whose nested run is calling now; 0 at top level */
    uint64_t call_seq;   /* seq reserved for the call being performed */
    int depth;           /* nesting of call_agent */
    uint64_t open_calls[HOST_MAX_NESTING + 1]; /* seqs of call_agent calls in progress, outermost first */
    size_t n_open_calls;
    json_t *pending;
    bool aborted; /* some call returned HOST_ABORT: the run is over */
    char *abort_reason;
    uint64_t diverged_at; /* the seq at which a replayed call differed from the log (0: none) */
    size_t live_calls;    /* recorded calls past the log, performed (or refused by the gate) in this run */
    const policy *policy;         /* the gate's policy (not owned); NULL lets everything through */
    const policy *session_policy; /* layered stricter-wins on policy (serve sessions) */
    bool auto_approve;            /* CHIDORI_POLICY_AUTO_APPROVE=1 */
    bool approvals_can_suspend;   /* serve: ask_before suspends the run for an approval */
    json_t *approvals;            /* [{target, args}] approved for the rest of the session */
    json_t *pending_approval;     /* {target, args, reason} after an ask_before suspended the run */
    const atomic_int *cancel;     /* the run was cancelled (serve) when it reads non-zero */
    struct otel_run *trace;       /* spans of recorded calls go here (telemetry/otel.h), or NULL */
    bool trace_replayed;
    void **module_states;         /* one per effect_modules[] entry */
    /* sub-runs (host/member.h) */
    const struct host_members *members; /* how to start them, or NULL */
    uint64_t anchor_seq;          /* a member's: its top-level calls' parent_seq (0 otherwise) */
    bool in_member;
    void *member_user;
    int (*park)(void *ctx, struct host *h, const json_t *pending, const json_t *approval, char **response); /* host_config's (NULL in a member) */
    void *park_ctx;
    const atomic_int *member_stop; /* the member was asked to stop when it reads non-zero */
    char *run_id;                  /* host_config's (owned), or NULL */
    char *run_dir;                 /* host_config's (owned), or NULL */
    uint64_t (*tree_meter)(void *ctx, int depth, uint64_t ticks, uint64_t heap_bytes); /* host_config's */
    void (*tree_charge)(void *ctx, int depth, uint64_t ticks);
    void *tree_ctx;
    /* Set by a perform function for the record of its own call (host.c takes them right after it):
     * keys added to the record, and that the call, once recorded as failed, ends the run (HOST_ABORT,
     * and again on replay: the record gets "ends_run": true). */
    json_t *record_extra;
    bool end_after_record;
    bool engine_local;            /* set while the in-process engine's internal call runs (host.c) */
    int64_t stamp_ms;             /* the next call's timestamp, if it may be (host_stamp_next_call) */
    int64_t last_stamp_ms;        /* the timestamp of the last recorded call performed */
};

struct op_def;
/* What replaying rec answers a call of op with, as far as the record alone says (host.c's replay
 * also charges a nested run's `tree_ticks` and ends the run at an `ends_run` record): HOST_OK with
 * *result, or HOST_ERROR with *error. */
int host_recorded_outcome(const struct op_def *op, const call_record *rec, json_t **result, char **error);

/* A nested run (call_agent) starts one level deeper, as the child of the call being performed;
 * every module drops what it kept for that depth. host_nest_leave undoes it when the run ends. */
void host_nest_enter(host *h);
void host_nest_leave(host *h);

/* gate.c: HOST_OK to perform, HOST_ERROR (*error) when denied, HOST_SUSPEND to ask. op is the
 * gated op whose target the call is (another module may ask as `workspace`, say). */
int host_gate(host *h, const char *op, const json_t *args, char **error);
/* gate.c: may any call of target be made (allowed or after asking), whatever its args? false with
 * *why (malloc'd, "policy: `tool:x` denied: reason") when every such call would be denied. */
bool host_gate_may_offer(host *h, const char *target, char **why);
/* gate.c: the decision of the policy and the session profile layered on it (the stricter wins)
 * for target and match (*reason: the deciding rule's, owned by the policy), without asking;
 * always_allow (0) when the run has no policy. For a check within an effect (an http redirect). */
int host_gate_decide(host *h, const char *target, const json_t *match, const char **reason);
/* gate.c: CHIDORI_POLICY_AUTO_APPROVE=1 approves every ask_before. */
bool host_gate_auto_approves(const host *h);

/* effects/fs.c: a chidori.step began at the current depth (effects/step.c tells it: the fs
 * module's step barrier depends on it). */
void fs_note_step_begin(host *h);
/* effects/fs.c: the VFS of the current depth as a seed document (docs/vfs.md), or NULL when it
 * has none yet (then a member starts from the run's seed, also returned here). */
json_t *fs_vfs_snapshot(host *h);

/* effects/http.c: the `http` effect's settings from CHIDORI_HTTP_MAX_BYTES, _MAX_REQUEST_BYTES,
 * _MAX_REDIRECTS, _TIMEOUT_MS and _ALLOW_HOSTS; NULL with *error for a bad value. */
typedef struct http_settings http_settings;
http_settings *http_settings_new(const struct settings *s, char **error);
void http_settings_free(http_settings *s);

/* Helpers for perform functions: fetch a required string argument or set *error. */
const char *host_arg_string(const json_t *args, const char *name, char **error);

/* Open a path relative to a folder without ever leaving it: no absolute paths, no `..`, no NUL,
 * symlinks only while they stay beneath (openat2 RESOLVE_BENEATH, or a checked fallback).
 * Returns an fd or -1 with errno (EXDEV for an escape). */
int open_beneath(int dirfd, const char *dir_path, const char *rel, int flags, int mode);
/* A relative path is acceptable to open_beneath (and names no `..` part). */
bool path_is_confined(const char *rel, size_t len);
/* Some part of the path is a state folder, `.chidori` (the agent's own, or a sub-agent's). */
#define STATE_DIR_NAME ".chidori"
bool path_names_state_dir(const char *rel);

/* Some actor this run spawned has not ended (effects/actors.c): it works on while the run waits,
 * so such a run never parks (host_config.park). */
bool actors_any_running(host *h);

#endif
