/* runner.h — one durable run of an agent, for every surface that runs agents (the CLI's run,
 * replay and resume; the server's sessions).
 *
 * A run is: a host configured from the request (policy, session profile, approvals, answers),
 * a call log preloaded with records (replay-then-live, replay-only) or empty (live), an optional
 * answer to the input the run paused on, then the engine — in this process or in a confined
 * worker — and finally an outcome: completed (output), failed (error), paused (the pending
 * input) or awaiting an approval (the pending gated call).
 *
 * The runner knows nothing of files or HTTP: where records come from and go to is the caller's
 * (a records.jsonl for the CLI, SQLite for the server), given as a file to load/append to or as
 * JSON records plus a sink. Trusts its caller; trusts nothing the agent does (the host and the
 * isolation layer see to that).
 */
#ifndef CHIDORI_RUNNER_H
#define CHIDORI_RUNNER_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/engine.h"
#include "host/calllog.h"
#include "isolate/isolate.h"
#include "runner/surface.h"
#include "util/json.h"

struct policy;
struct host;

/* Cancellation of a run in progress from another thread: runner_cancel_init, then runner_cancel_now
 * (any time, any thread). The host refuses every further effect and an isolated worker is killed.
 * An in-process run stops at its next effect (a pure computation runs on until a limit ends it). */
typedef struct runner_cancel {
    atomic_int flag;
    int fd; /* eventfd the supervisor watches; -1 if it could not be made */
} runner_cancel;

int runner_cancel_init(runner_cancel *c);
void runner_cancel_now(runner_cancel *c);
void runner_cancel_clear(runner_cancel *c);

typedef struct runner_request {
    const char *project_root;   /* the agent's folder (a real path) */
    const char *entry;          /* the agent's key inside it */
    const char *state_dir;      /* durable state (memory); NULL: <project_root>/.chidori */
    const json_t *input;        /* object */
    uint64_t seed;              /* captured at the run's start (replays reuse it) */
    int64_t clock_start_ms;
    engine_limits limits;
    const struct settings *settings; /* what the edge read (settings.h; not owned): the host's effects
                                        read theirs from it. NULL: the defaults */
    const surface_settings *surface; /* CHIDORI_TS_* choices, VFS cap and seed; NULL: defaults */

    /* the call log */
    calllog_mode mode;          /* LOG_LIVE, LOG_REPLAY_THEN_LIVE or LOG_REPLAY_ONLY */
    const char *records_file;   /* load these records first (a records.jsonl), or NULL */
    const json_t *records;      /* ... or these (an array of record objects), or NULL */
    calllog_caps log_caps;      /* caps on the run's records (calllog_caps_from_settings); 0s: defaults */
    const char *persist_file;   /* append new records to this file (see calllog_persist_to) */
    const char *persist_companion;
    calllog_sink_fn *sink;      /* and/or hand each new record to this */
    void *sink_ctx;
    bool adopt_open_calls;      /* records whose parent is missing belong to calls in progress when
                                   the log stopped (a crash): give those calls their seqs again */

    /* pause and resume */
    const json_t *pending;      /* resume: the pending input call the run paused on ... */
    const char *response;       /* ... and its answer. When the log already holds the answer (a
                                   resume stopped after recording it), that record answers, nothing
                                   is appended, and open calls are adopted as after a crash */
    const json_t *recorded_pause; /* replay of a paused run: the call it paused on (its pending) */
    const json_t *reopen;       /* approval replay: the pending call; its open calls keep their seqs */
    const char *const *answers; /* input() answers, in order (--answer) */
    size_t n_answers;
    bool interactive;           /* input() may ask on the terminal */

    /* policy */
    const struct policy *policy;
    const struct policy *session_policy;
    const json_t *approvals;    /* [{target, args}] approved earlier in the session, or NULL */
    bool approvals_can_suspend; /* ask_before suspends the run (serve) */

    /* isolation */
    bool isolated;
    isolate_options iso;
    bool banner;                /* the top-level worker prints the `Isolation:` line (CLI) */
    bool engine_on_thread;      /* in-process: run the engine on a thread of its own (serve) */
    bool exit_after;            /* the process exits after this run (CLI): the top-level in-process
                                 * engine is not torn down (engine_config.exit_after), nor the
                                 * loaded call log's records (host_free_at_exit) */
    runner_cancel *cancel;      /* or NULL */

    const host_memory_store *memory; /* chidori.memory elsewhere than memory.json, or NULL */
    const host_signal_box *signals;  /* the run's signal mailbox, or NULL (host.h) */
    FILE *log_out;              /* chidori.log and console output; NULL: stderr */
    /* Called once the run is set up, just before the agent starts (the CLI prints its banner). */
    void (*ready)(void *ctx);
    void *ready_ctx;
    /* Told as each live recorded call starts (host_config.call_started), or NULL (the CLI's
     * progress line sets it only on a terminal). */
    void (*call_started)(void *ctx, const char *op, const json_t *args);
    void *call_started_ctx;
    /* Told while live prompts stream (host_config.prompt_event), or NULL: `run --stream`, serve. */
    void (*prompt_event)(void *ctx, const json_t *event);
    void *prompt_event_ctx;
    /* A pause (an input, an approval) the run may wait out here instead (host_config.park: serve's
     * parked runs), or NULL: the run pauses. Never handed to members. */
    int (*park)(void *ctx, struct host *h, const json_t *pending, const json_t *approval, char **response);
    void *park_ctx;

    /* traces (telemetry/otel.h; nothing when the process exports none) */
    const char *run_id;         /* chidori.run_id of every span and branch ids, or NULL */
    const char *run_dir;        /* the run's folder: chidori.branch keeps its store there (CLI), or NULL */
    /* a branch run again on its own (branch-resume, branch-rerun): its top-level calls nest under
     * anchor_seq, its new seqs follow seq_after, and these seqs are handed out first (the calls
     * that were open when it paused); 0 / NULL for a run */
    uint64_t anchor_seq, seq_after;
    const uint64_t *queue_seqs;
    size_t n_queue_seqs;
    const char *traceparent;    /* the caller's W3C trace context (serve), or NULL */
} runner_request;

typedef enum runner_status {
    RUNNER_COMPLETED,
    RUNNER_FAILED,
    RUNNER_PAUSED,            /* waiting for an input: pending */
    RUNNER_AWAITING_APPROVAL, /* waiting for an approval: pending and pending_approval */
} runner_status;

typedef struct runner_outcome {
    runner_status status;
    char *output_json;        /* COMPLETED: compact JSON */
    char *error;              /* FAILED */
    json_t *pending;          /* PAUSED / AWAITING_APPROVAL: {seq, parent_seq?, function, args, open_calls} */
    json_t *pending_approval; /* AWAITING_APPROVAL: {target, args, reason} */
    size_t call_count;        /* records in the log at the end */
    bool cancelled;           /* the run was cancelled (it then FAILED) */
    bool input_invalid;       /* FAILED because the input did not match run()'s inputSchema, before
                                 any record and under no limit (CLI exit 2, POST /sessions 400) */
    uint64_t diverged_at;     /* FAILED by the seam: the agent's call at this seq differed from the log
                                 (host_diverged_at; never read from the error's text), 0 otherwise */
    size_t live_calls;        /* recorded calls that went past the log in this run (host_live_calls) */
    json_t *modules;          /* the files and imports the run was served (host_modules_served), for its
                                 manifest (manifest_set_served); NULL if none */
} runner_outcome;

/* Set up and run. -1 with *error when the run could not be set up (the agent's folder, a log that
 * does not load, a bad pending call): nothing ran. 0 with *out otherwise. */
int runner_run(const runner_request *req, runner_outcome *out, char **error);
void runner_outcome_clear(runner_outcome *out);

/* An agent file → its folder (real path) and its key inside it. 0, or -1 with *error. */
int runner_split_agent(const char *file, char **folder, char **key, char **error);

#endif
