/* member.h — sub-runs ("members") of a run, as the host sees them: the neutral interface through
 * which an effect (branch, actors) starts another agent module on a thread of its own, waits
 * for it, stops it, reads its outcome and folds its records into the calling run's log.
 *
 * The host knows nothing of the engine or of workers: the runner provides the implementation
 * (runner/member_run.c) through host_config.members, as it provides run_nested for call_agent. This
 * header owns only the types and host_member_merge (host/member_merge.c), which runs on the
 * calling run's own thread.
 *
 * A member has:
 * - its own host: its own call log, in memory, whose seqs are the reserved range
 *   (seq_base, seq_end) and whose top-level records carry parent_seq = anchor_seq (the seq of the
 *   call that started it); its own VFS, filled from vfs_seed (a copy of the caller's VFS); its own
 *   module states (MCP servers, loaded modules), made and ended with it;
 * - what it shares with the caller, read-only: the policy and session profile, the settings, the
 *   project root and state folder, the approvals given so far (copied at start);
 * - what it shares with every other host of the process, made safe for threads: the output streams
 *   (stdio locks each write), the progress line and prompt events (the runner serialises them),
 *   the memory store (one lock around the file store; the server's store is a database), the
 *   cancellation of the run (a cancelled run stops its members). Real files written through
 *   chidori.workspace are the same files: two members writing one file race as two processes would.
 * - no trace of its own: its records are exported as spans by the caller when they are merged.
 *
 * An input() inside a member never asks the terminal and uses no --answer: the member pauses
 * (MEMBER_PAUSED with the pending call) and the caller decides what that means (branch: a `paused`
 * outcome). A member inside a member is allowed by this interface; branch refuses it itself.
 */
#ifndef CHIDORI_HOST_MEMBER_H
#define CHIDORI_HOST_MEMBER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "util/json.h"

typedef struct host host;
typedef struct host_member host_member; /* the runner's */

typedef enum host_member_status {
    MEMBER_RUNNING = 0,
    MEMBER_COMPLETED, /* output_json */
    MEMBER_PAUSED,    /* pending (and pending_approval when it waits for an approval), pending_prompt */
    MEMBER_FAILED,    /* error */
    MEMBER_STOPPED,   /* host_members.stop ended it (error says so) */
} host_member_status;

typedef struct host_member_spec {
    const char *entry;        /* the module, relative to the project root (confined like call_agent) */
    const char *input_json;   /* compact JSON object */
    uint64_t anchor_seq;      /* parent_seq of its top-level records: the starting call's seq */
    uint64_t seq_base;        /* its first seq is seq_base + 1 ... */
    uint64_t seq_end;         /* ... and every seq is below seq_end */
    const json_t *vfs_seed;   /* its VFS at start (a seed document, docs/vfs.md), or NULL: empty */
    const json_t *records;    /* replay these first (an array of records in its range), or NULL */
    const uint64_t *queued;   /* with records: seqs of calls that were open when it paused */
    size_t n_queued;
    const json_t *approvals;  /* [{target, args}] given so far (copied), or NULL */
    uint64_t salt;            /* mixed into its Math.random seed (the run's seed, entry, input, salt) */
    const char *default_model; /* an actor's intercept (copied; NULL: the run's): host_config's */
    const json_t *tool_allow;
    const char *workspace_root;
    void *user;               /* what the starting effect keeps for it (host_member_user) */
    void (*on_stop)(void *user); /* told on the stopping thread when stop is asked (wake a wait) */
    /* The run's tree budget (runner/tree_budget.h): members started together (a wave of branches)
     * pass their count, so their grants sum to what is left (0 = 1); a member started with no
     * caller (an actor's iteration, from its supervisor thread) says its depth in the tree (>= 1). */
    unsigned share;
    int tree_depth;
} host_member_spec;

typedef struct host_member_outcome {
    host_member_status status;
    char *output_json;        /* COMPLETED */
    char *error;              /* FAILED, STOPPED */
    json_t *pending;          /* PAUSED: {seq, parent_seq, function, args, open_calls} */
    json_t *pending_approval; /* PAUSED for an approval: {target, args, reason}, else NULL */
    char *pending_prompt;     /* PAUSED: the input's prompt, `approval required: <target>`, or
                                 `waiting on signal: <name>` */
    json_t *records;          /* every record it appended, in append order (an array) */
    size_t live_calls;        /* its recorded calls performed live */
    uint64_t seed;            /* its Math.random seed and virtual clock start (to run it again alike) */
    int64_t clock_start_ms;
    uint64_t ticks;           /* the CPU ticks its engine counted (charged to its caller's run) */
} host_member_outcome;

/* The runner's implementation. Every function may be called from any thread; one member is
 * waited for, read and freed by one thread at a time. */
typedef struct host_members {
    /* Start a member now (it runs on its own thread; isolated runs get their own confined worker).
     * NULL with *error when it cannot start (nothing ran). */
    host_member *(*start)(void *ctx, host *caller, const host_member_spec *spec, char **error);
    /* Wait until it ended or timeout_ms passed (<0: no limit). true once it has ended. */
    bool (*wait)(host_member *m, int64_t timeout_ms);
    /* Wait until one of ms[0..n) ended or timeout_ms passed (<0: no limit): the index of an ended
     * one (the lowest), or -1 on timeout. */
    int (*wait_any)(host_member *const *ms, size_t n, int64_t timeout_ms);
    /* Ask it to stop: its next host call fails and ends it (an isolated worker is killed, an
     * in-process engine halts at its next interrupt poll), and spec.on_stop is told. Returns at
     * once; wait for it. */
    void (*stop)(host_member *m);
    /* Its outcome once it has ended (wait returned true), owned by the member; NULL before. */
    const host_member_outcome *(*outcome)(host_member *m);
    /* Stop it if it still runs, wait for it, free it. */
    void (*free)(host_member *m);
    /* The message the run's tree ended with (a member crossed a limit of the tree budget, or was
     * refused by its depth or live cap: every member was stopped), or NULL while it runs. The
     * effect that waited then fails its call with it and ends the run (end_after_record). */
    const char *(*tree_ended)(void *ctx);
    void *ctx;
} host_members;

/* In a member's host: the spec's user pointer (NULL in a top-level run's host). */
void *host_member_user(const host *h);
/* Whether h is a member's host. */
bool host_is_member(const host *h);
/* The caller's members (host_config.members), or NULL when this run cannot start any. */
const host_members *host_members_of(const host *h);
/* A copy of the VFS the call being performed sees (a seed document), or NULL when it has none. */
json_t *host_vfs_snapshot(host *h);
/* The chidori.workspace root h's calls see (effects/workspace.c): a real path. */
const char *host_workspace_root(host *h);
/* A copy of the approvals given so far ([{target, args}]), or NULL. */
json_t *host_approvals_copy(const host *h);

/* Fold a member's records into h's log, on h's thread: every record must parse and lie in
 * [lo, hi) (else nothing is merged and -1 with *error says which); they are appended in order (the
 * log's file and sink get them as if performed), the seq counter is raised past them, and the
 * run's trace gets their spans. A replay of the starting call's record then absorbs them. 0 or -1. */
int host_member_merge(host *h, const json_t *records, uint64_t lo, uint64_t hi, char **error);

#endif
