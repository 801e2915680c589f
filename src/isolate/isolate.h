/* isolate.h — process isolation of a run: the options, the messages the supervisor and the worker
 * exchange (beyond the framing of protocol.h), and the two entry points.
 *
 *   supervisor_run (parent): spawns `chidori __run-worker`, serves its Call frames through the
 *   host, enforces the deadline, maps the worker's end to a precise error.
 *   worker_main (child): confines itself, runs the engine with a broker seam.
 */
#ifndef CHIDORI_ISOLATE_H
#define CHIDORI_ISOLATE_H

#include <stdbool.h>
#include <stdint.h>
#include "engine/engine.h"
#include "host/host.h"

/* What the worker applies to itself before agent code runs (confine.c). */
typedef struct isolate_sandbox {
    bool require;          /* CHIDORI_ISOLATE_REQUIRE_SANDBOX=1: a core layer that fails fails the run */
    uint64_t cpu_secs;     /* CHIDORI_ISOLATE_CPU_SECS: RLIMIT_CPU (0 = not set) */
    uint64_t fsize_bytes;  /* CHIDORI_ISOLATE_FSIZE_BYTES: RLIMIT_FSIZE (0 = not set) */
    char skip[128];        /* CHIDORI_ISOLATE_SKIP: layers left out, comma-separated (bench/debug only) */
} isolate_sandbox;

/* Confine the calling process (the worker, after start-up). 0 with *report ({layers: [{name,
 * applied, detail}]}), or -1 with *error when a required layer could not be applied. */
int isolate_confine(const isolate_sandbox *cfg, int shared_netns_fd, int parent_mntns_fd, json_t **report, char **error);
/* In a fork server: enter once the namespaces every worker it forks shares (sandbox_apply_shared);
 * isolate_confine in such a worker then applies only the rest. -1 with *error when a fork server
 * must not serve here (it would keep root's identity). */
int isolate_confine_shared(const isolate_sandbox *cfg, int shared_netns_fd, char **error);
bool name_in_list(const char *list, const char *name);
/* Whether cfg confines a worker with this layer ("pidns", ...): not left out by CHIDORI_ISOLATE_SKIP. */
bool isolate_sandbox_wants(const isolate_sandbox *cfg, const char *layer);
/* The `Isolation:` banner text for a confinement report. */
char *isolate_banner(const json_t *report);
/* What isolate_banner says of a report without a usable summary. */
#define ISOLATE_NO_SUMMARY "process (the worker sent no summary)"
/* Test-only (CHIDORI_ISOLATE_SELFTEST): try one forbidden act; JSON text {probe, outcome}. */
char *isolate_selftest(const char *probe);

typedef struct worker_pool worker_pool;

typedef struct isolate_options {
    isolate_sandbox sandbox; /* layers the worker applies to itself */
    uint64_t deadline_ms;    /* CHIDORI_ISOLATE_DEADLINE_MS: the parent kills the worker (0 = off) */
    bool deadline_ms_set;    /* it was given: it replaces the deadline derived from the run's limits */
    bool cpu_secs_set;       /* CHIDORI_ISOLATE_CPU_SECS was given: it replaces the derived CPU limit */
    const char *selftest;    /* CHIDORI_ISOLATE_SELFTEST: test-only forbidden act (NULL = none) */
    bool no_ahead;           /* CHIDORI_ISOLATE_AHEAD=0: replayed calls wait for their answers (ahead.h) */
    bool watch_cancel;       /* cancel_fd becoming readable cancels the run: the worker is killed */
    int cancel_fd;
    worker_pool *pool;       /* take a warm worker from it when one is ready (NULL: always cold) */
    struct forkserver *forkserver; /* fork workers from it when it is ready (forkserver.h; NULL: exec each) */
    bool forkserver_own_engine; /* its workers build their own engine rather than copy its prepared one
                                   (CHIDORI_SERVE_FORKSERVER_ENGINE; serve.c decides "auto") */
    bool pin_cpu;            /* worker and calling thread share one CPU (a single run: the CLI) */
    int end_in_background;   /* up to this many workers' exits after their outcome are waited for by
                                kept threads at once, not by their runs (a server: its session limit;
                                supervisor.c, end_after_done); 0: the run waits */
    struct warm_worker **early; /* a worker the caller began before its own set-up
                                   (supervisor_prespawn_begin): the first run takes it, leaving NULL */
    bool has_shared_netns;   /* workers join shared_netns (a server's, see shared_netns.c) */
    int handed;              /* descriptors sent on the worker's handoff socket (set per worker): its
                                first Init says how many, and it refuses to run on fewer */
    int shared_netns;
    const char *cgroup_root; /* CHIDORI_ISOLATE_CGROUP: the delegated cgroup v2 directory (NULL: the default) */
    const char *asan_options, *ubsan_options; /* what a worker of a sanitizer build gets (NULL: none) */
} isolate_options;

/* An empty network namespace for workers to join (shared_netns.c): a descriptor, or -1 when this
 * process cannot make one without a user namespace of its own (not root). */
int isolate_netns_open(void);
/* The same, made by moving the calling thread into it: only for a thread that ends right after. */
int isolate_netns_open_here(void);
/* A mount namespace whose root is empty and read-only, for one worker to join (parent_mntns.c):
 * made by moving the calling thread into it (only for a thread that ends right after); -1 when
 * this process is not root or it could not be made whole. */
int isolate_mntns_open_here(void);
/* The worker's descriptor 3: a socket on which the parent sends, right after the spawn and before
 * the first Init, the descriptors the worker starts with — a network namespace to join, its cgroup
 * slot's membership files — so that the parent prepares them while the worker execs. */
#define ISOLATE_HANDOFF_FD 3

/* The backstop's figures (docs/limits.md): the grace past the engine's own deadline, the CPU time
 * a tick is allowed, and the slack for start-up before the first tick. */
#define ISOLATE_BACKSTOP_GRACE_MS 500        /* the engine's own deadline error comes first when it polls */
#if defined(__SANITIZE_ADDRESS__)
#define ISOLATE_BACKSTOP_NS_PER_TICK 800     /* sanitizer builds run each tick 3-7 times slower */
#else
#define ISOLATE_BACKSTOP_NS_PER_TICK 100     /* measured: 15 ns (a tight loop) to 520 ns (small builtins) */
#endif
#define ISOLATE_BACKSTOP_CPU_SLACK_MS 1000   /* start-up, before the first tick */
/* The CPU time (ms) a run with these limits may use before the backstop stops it; 0: no budget. */
uint64_t isolate_backstop_cpu_ms(const engine_limits *lim);

/* The backstop of a run executed in this process, with no worker (inproc_backstop.c): two POSIX
 * timers (a signal) that end the whole process, with the limit's message on stderr and exit status 1, once
 * the process has used the CPU time of lim's budget, and (wall: only for a run that performs no
 * host effect, which could legitimately outlast the deadline) once the deadline plus its grace has
 * passed. For the CLI's in-process runs, whose process is the run; never for a server. Arm it right
 * before the run starts; at most once per process. host_slack_ms is CPU time added for the host's
 * own work in this process (parsing, records, a replayed prefix), which an isolated run's worker
 * does not do: ISOLATE_INPROC_HOST_SLACK_MS for the CLI. */
#define ISOLATE_INPROC_HOST_SLACK_MS 10000
void isolate_inproc_backstop_arm(const engine_limits *lim, bool wall, uint64_t host_slack_ms);

/* From the CHIDORI_ISOLATE_* settings (checked when s was built; NULL: the defaults), and the
 * sanitizer options a worker is given. The strings point into s. */
struct settings;
void isolate_options_from_settings(isolate_options *o, const struct settings *s);

/* Init: everything the worker needs to run (no file is opened by it). */
#define ISOLATE_TRACE_OPS_MAX 8
typedef struct isolate_init {
    engine_config config;    /* seam unset: the worker installs its broker */
    isolate_sandbox sandbox;
    char *selftest;
    char *entry, *script, *script_name, *input_json; /* owned strings config points into */
    /* the trace ops (host_trace_ops): calls the worker goes on past without waiting (ahead.h) */
    char *trace_ops[ISOLATE_TRACE_OPS_MAX];
    size_t n_trace_ops;
} isolate_init;

json_t *isolate_init_encode(const engine_config *cfg, const isolate_options *o);
/* The first Init of a warm worker: only the sandbox it applies to itself before it waits. */
json_t *isolate_warm_encode(const isolate_options *o);
bool isolate_init_is_warm(const json_t *frame);
json_t *isolate_forkserver_encode(const isolate_options *o);
bool isolate_init_is_forkserver(const json_t *frame);
/* A fork server's Init: whether its workers build their own engine (isolate_options.forkserver_own_engine). */
bool isolate_forkserver_own_engine(const json_t *frame);
/* How many descriptors the first Init says were handed over (-1: it does not say). */
int isolate_init_handed(const json_t *frame);
/* Whether the first Init comes from a parent built from the same code as this worker. */
bool isolate_init_same_build(const json_t *frame);
/* A hash of the code chidori and chidori-worker share (generated by the Makefile). */
extern const char chidori_build_id[];
int isolate_warm_decode(const json_t *frame, isolate_sandbox *out, char **error);
int isolate_init_decode(const json_t *frame, isolate_init *out, char **error);
void isolate_init_clear(isolate_init *in);

/* Done: the engine's outcome. */
json_t *isolate_outcome_encode(const engine_result *res);
int isolate_outcome_decode(const json_t *outcome, engine_result *res, char **error);

/* Reply: a host_call result (HOST_OK / HOST_ERROR / HOST_SUSPEND / HOST_ABORT) as a frame and back. */
json_t *isolate_reply_encode(int rc, const json_t *result, const char *error);
int isolate_reply_decode(const json_t *reply, json_t **result, char **error);

/* Run cfg in a fresh confined worker, serving its host ops through h. With banner non-NULL, the
 * worker's confinement report is printed as the `Isolation:` line and returned (caller frees). */
int supervisor_run(const engine_config *cfg, host *h, const isolate_options *o, engine_result *res, char **banner);

/* A warm worker: spawned, in its cgroup, confined, waiting for the Init of its one run. */
typedef struct warm_worker warm_worker;
/* Start one now (the spawn and the confinement cost move out of a run's path). NULL + *error. */
warm_worker *supervisor_prespawn(const isolate_options *o, const engine_limits *limits, char **error);
void warm_worker_discard(warm_worker *ww);
/* The same in two halves, so the caller's own set-up overlaps the worker's exec and confinement:
 * begin spawns it and tells it to confine itself; finish waits for its report. */
warm_worker *supervisor_prespawn_begin(const isolate_options *o, const engine_limits *limits, char **error);
int supervisor_prespawn_finish(warm_worker *ww, char **error);

/* pool.c: keeps `size` warm workers ready, refilled by a thread of its own; each is handed out
 * once (never reused: a worker runs one agent and dies). Workers share the options they were
 * made with, so a pool serves runs with those options only. */
worker_pool *worker_pool_start(int size, const isolate_options *o, const engine_limits *limits);
/* A ready worker (the caller owns it), or NULL when none is ready: run cold then. */
warm_worker *worker_pool_take(worker_pool *p);
/* Stop refilling and discard the ready workers. */
void worker_pool_stop(worker_pool *p);
int worker_main(void);

#endif
