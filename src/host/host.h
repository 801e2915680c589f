/* host.h — the one door out of the engine.
 *
 * Everything guest code can cause outside its own heap crosses host_call(): each chidori.*
 * effect, console output, module loads. The engine cannot tell an in-process host from the
 * broker client of an isolated worker, which is what keeps the two modes byte-identical.
 *
 * For every op host_call does, in this order and in this one place:
 *   replay lookup → policy gate → perform → append to the call log.
 * Ops are declared by the effect modules (ops.h), each with flags saying whether it is recorded,
 * gated or internal; the result codes and the call type are seam.h's.
 */
#ifndef CHIDORI_HOST_H
#define CHIDORI_HOST_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>
#include "seam.h"
#include "util/json.h"
#include "host/calllog.h"

typedef struct host host;

/* Runs a nested agent for call_agent: the CLI provides it, since the host knows nothing of the
 * engine. Returns HOST_OK with *output_json (compact), or another HOST_* code with *error. */
typedef struct host_nested_end {
    uint64_t ticks; /* CPU budget ticks the nested run counted (its own nested runs included) */
    bool ends_tree; /* it crossed a limit of the run's tree budget: the whole run ends (HOST_ABORT) */
} host_nested_end;
typedef int host_nested_fn(void *ctx, host *h, const char *entry, const char *input_json, char **output_json,
                           host_nested_end *end, char **error);

/* A store for chidori.memory other than <state dir>/memory.json (the server keeps memory in its
 * database, shared safely by concurrent sessions). op gets the checked arguments — action (get,
 * set, delete, list, clear), namespace, key (get/set/delete), value (set), prefix (list, or NULL)
 * — and answers exactly as the file store does: HOST_OK with *result, or HOST_ERROR with *error. */
typedef struct host_memory_store {
    int (*op)(void *ctx, const char *action, const char *ns, const char *key, const json_t *value,
              const char *prefix, json_t **result, char **error);
    void *ctx;
} host_memory_store;

/* A run's signal mailbox (chidori.signal, effects/signal.c): kept by whoever drives the run (the
 * server's database, the CLI's run folder). take(ctx, seq, names, n, &signal): the signal given to
 * the call at seq — the one already handed to that seq (a call performed again after a crash gets
 * the same one), else the oldest queued whose name is one of names, now handed to seq. 1 with
 * *signal ({name, payload, from}, or a timeout's sentinel), 0 when there is none, -1 with *error. */
typedef struct host_signal_box {
    int (*take)(void *ctx, uint64_t seq, const char *const *names, size_t n, json_t **signal, char **error);
    void *ctx;
} host_signal_box;

typedef struct host_config {
    const char *project_root;   /* folder the agent's modules and nested agents are confined to */
    const char *state_dir;      /* where durable state lives (memory); default <project>/.chidori */
    const char *workspace_root; /* chidori.workspace root; default CHIDORI_WORKSPACE_ROOT or the project */
    const struct settings *settings; /* the settings the edge read (settings.h; not owned); NULL: defaults */
    FILE *log_out;              /* chidori.log lines and console.warn/error (stderr) */
    FILE *console_out;          /* console.log/info/debug (stdout for `eval`, stderr for `run`) */
    const char *const *answers; /* answers for input(), used in order (--answer) */
    size_t n_answers;
    bool interactive;           /* input() may ask on the terminal */
    host_nested_fn *run_nested;
    void *nested_ctx;
    /* The run's tree budget (runner/tree_budget.h) as the seam sees it, or NULL: none. tree_meter:
     * the engine of the run at depth counted ticks and heap bytes (seam.h's meter); returns the
     * ticks to charge it now. tree_charge: charge the run at depth ticks that a replayed nested
     * run's record says it spent. */
    uint64_t (*tree_meter)(void *ctx, int depth, uint64_t ticks, uint64_t heap_bytes);
    void (*tree_charge)(void *ctx, int depth, uint64_t ticks);
    void *tree_ctx;
    const struct policy *policy;         /* the gate's policy (not owned; NULL: no gate) */
    const struct policy *session_policy; /* a session profile layered stricter-wins (or NULL) */
    /* node:fs (docs/vfs.md) */
    const json_t *vfs_seed;              /* seed document (copied), or NULL for an empty VFS */
    uint64_t vfs_max_bytes;              /* 0: VFS_DEFAULT_MAX_BYTES */
    int64_t vfs_clock_ms;                /* time stamped on "/" and seeded entries (the run's clock start) */
    bool fs_disabled;                    /* CHIDORI_TS_FS=none: every fs call fails */
    bool approvals_can_suspend;          /* ask_before suspends for an approval (serve); then
                                            CHIDORI_POLICY_AUTO_APPROVE (a CLI setting) is ignored */
    const atomic_int *cancel;            /* set from another thread: every further call ends the run */
    struct otel_run *trace;              /* the run's trace (telemetry/otel.h), or NULL: no spans */
    bool trace_replayed;                 /* calls answered from the log get spans too */
    const host_memory_store *memory;     /* NULL: <state dir>/memory.json */
    const host_signal_box *signals;      /* NULL: no mailbox (a signal pauses the run) */
    /* A pause the run may wait out instead (serve, docs/http-api.md#parked-runs): an input nobody can
     * answer now (approval NULL), a signal nobody has sent yet (approval NULL, the pending call's
     * function signal or signal_any), or a gated call that waits for an approval (approval: {target,
     * args, reason}, what the pause would store as pending_approval). park(ctx, h, pending,
     * approval, &response) is called on the thread that performs the call, with the pending call
     * the pause would have stored ({seq, parent_seq, function, args, open_calls}) and h
     * (host_modules_served). It returns 1 when the wait ended well: for an input with *response
     * (malloc'd), which answers the call as a resume would (recorded as given, live); for a signal,
     * once the signal (or its timeout) was handed to the call's seq in the run's mailbox: the call
     * is performed again and takes it; for an approval, the call is approved (remembered for the
     * rest of the run, as an approved re-run remembers it) and performed. 0: the run pauses as
     * before. Never called in a member's host. NULL: none. */
    int (*park)(void *ctx, struct host *h, const json_t *pending, const json_t *approval, char **response);
    void *park_ctx;
    /* An actor's intercept (docs/effects.md#actors): NULL for everyone else. */
    const char *default_model;           /* the model a prompt naming none asks (over CHIDORI_MODEL) */
    const json_t *tool_allow;            /* the only registry tools it may name (an array), or NULL: any */
    /* Told as each live recorded call starts (before its policy gate), on the thread that runs it:
     * the CLI's progress line. NULL: nobody is told. Must not call back into the host. */
    void (*call_started)(void *ctx, const char *op, const json_t *args);
    void *call_started_ctx;
    /* Told while a live prompt's reply streams in (docs/effects.md), on the thread that performs
     * it; must not call back into the host. NULL: prompts are not streamed. Each event is
     * {type: "prompt_start", stream_id, seq, prompt_type, model}, then {type: "prompt_delta",
     * stream_id, seq, prompt_type, delta} per piece of text, then {type: "prompt_end", stream_id,
     * seq, prompt_type, error: message or null}; the call's record is appended after the end.
     * Replayed calls tell nothing. */
    void (*prompt_event)(void *ctx, const json_t *event);
    void *prompt_event_ctx;
    /* Sub-runs (host/member.h): how to start them (the runner's; NULL: none can start), and, in a
     * member's own host, the seq its top-level calls nest under and what its starter keeps. */
    const struct host_members *members;
    const char *run_id;                  /* the run's id (branch ids), or NULL */
    const char *run_dir;                 /* the run's folder, where the branch store is written (the
                                            CLI's runs/<id>), or NULL: no store (serve, replay) */
    uint64_t anchor_seq;                 /* 0 in a top-level run */
    bool in_member;                      /* this host is a member's */
    const atomic_int *member_stop;       /* a member's: set from another thread, every further call
                                            ends it (as cancel does) */
    void *member_user;
} host_config;

/* Returns NULL with *error set (malloc'd) when the configuration cannot be used. */
host *host_new(const host_config *cfg, char **error);
void host_free(host *h);
/* host_free for a process that exits right after it: the loaded call log's records are left to
 * the exit instead of freed one by one (under ASan they are freed, for its leak check). */
void host_free_at_exit(host *h);

/* The seam. HOST_OK with *result (caller frees), or another HOST_* code with *error (malloc'd,
 * caller frees; NULL for HOST_SUSPEND). args must be an object. */
int host_call(host *h, const char *op, const json_t *args, json_t **result, char **error);

/* The entry for chidori's own ops (OP_INTERNAL: module loads), which host_call refuses: only the
 * engine's module loader reaches it (in process through host_seam, from a worker through its own
 * frame type). Same contract as host_call; an op that is not internal is refused. */
int host_internal_call(host *h, const char *op, const json_t *args, json_t **result, char **error);

/* host_call with the host as a void pointer (seam_call_fn). */
int host_call_seam(void *host, const char *op, const json_t *args, json_t **result, char **error);
/* The engine's seam for an in-process run: host_call for the agent's ops, host_internal_call for
 * module loads. */
seam host_seam(host *h);
/* The tree budget's meter for the run at the current depth (seam.h's meter; the supervisor calls it
 * for its worker's engine): 0 when the run has no tree budget. */
uint64_t host_meter(host *h, uint64_t ticks, uint64_t heap_bytes);
/* Ticks host_meter handed out that could not reach the run's engine yet (a call the worker
 * answered ahead has no reply to carry them): owed again, counted in the tree's total, and handed
 * out by the next host_meter. */
void host_charge_back(host *h, uint64_t ticks);
/* Where the run's tree budget finds the run this host is running now: host_config.tree_ctx and
 * the call_agent depth (the runner maps them to a member of its tree when a member starts). */
void *host_tree_ctx(const host *h);
int host_nesting(const host *h);

/* The call log of this host's run (load it before the run to replay). */
calllog *host_calllog(host *h);
/* After HOST_SUSPEND: {seq, function, args} of the call that paused the run (owned by the host),
 * and, when it paused for an approval, {target, args, reason} (else NULL). */
const json_t *host_pending(const host *h);
const json_t *host_pending_approval(const host *h);
/* Remember an approval of (target, args) for the rest of the session. */
void host_approve(host *h, const char *target, const json_t *args);

/* Answer a paused run's pending input: append the answered record and queue the seqs of the
 * calls that were in progress, so the resumed replay lines up with the log. 0 or -1 + *error. */
int host_resume(host *h, const json_t *pending, const char *response, char **error);

/* Some call ended the run (HOST_ABORT): a divergence or an unwritable log. */
bool host_aborted(const host *h);
const char *host_abort_reason(const host *h);
/* Set by the seam itself, never read from an error's text: the seq at which the agent's call
 * differed from the log (0: it did not), and how many recorded calls went past the log (performed
 * live, or refused by the gate; a nested agent's call counts through its own calls). */
uint64_t host_diverged_at(const host *h);
size_t host_live_calls(const host *h);

size_t host_record_count(const host *h);

/* Replay ahead (an isolated run's worker answers replayed calls without waiting for the parent,
 * which checks each one after: isolate/ahead.h). The next records of the run's log that a call
 * would replay and that the record alone answers — no nested run, no record another op may
 * consume, no op whose calls may be refused before the log is read, no `tree_ticks` or `ends_run`
 * — in the order replay meets them, at most max_calls of them and
 * max_bytes of text: written to out as [[op, {"type":"reply","ok":result} |
 * {"type":"reply","err":message}], ...], the answer host_call's replay gives, with entries[i]
 * saying what entry i stands for. How many; 0 (out untouched) when there is none (a live run, an
 * ended or paused one). */
typedef struct host_ahead_entry {
    uint64_t seq;   /* the record's */
    const char *op; /* its function (the log's, valid while the run lasts) */
    bool failed;    /* it answers with an error */
} host_ahead_entry;
struct buf;
size_t host_replay_ahead(host *h, size_t max_calls, size_t max_bytes, struct buf *out, host_ahead_entry *entries);
/* The seq of the record the run's next recorded call must match; 0 past the end of its log. */
uint64_t host_replay_next_seq(host *h);

/* Trace ops (ops.h, OP_TRACE: mark): their answer is null whenever the call is taken at all, so an
 * isolated run's worker goes on past such a call without waiting, and the parent takes it after
 * (isolate/ahead.h). Whether op is one; the names of all of them, as a JSON array. */
bool host_op_is_trace(const char *op);
json_t *host_trace_ops(void);
/* The next call's record is timestamped ms (a worker's clock, when it made a call it did not wait
 * for) instead of the host's clock now, when ms lies between the previous record's timestamp and
 * now: a worker can only place its calls where they could have been. */
void host_stamp_next_call(host *h, int64_t ms);

/* What the module loader served the top-level run so far, for its snapshot manifest
 * (effects/module_record.h): {entry, modules, module_graph, modules_past_cap?}; the caller owns it. */
json_t *host_modules_served(host *h);

#endif
