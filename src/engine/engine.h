/* engine.h — run one agent (or one plain script) in a fresh QuickJS runtime and context.
 *
 * This is the only public face of src/engine/, the only code that includes quickjs.h. A run
 * gets a new JSRuntime + JSContext, the prelude, and the limits; it reaches the outside world only
 * through the seam passed in the config: host_call in process, or the broker client of an
 * isolated worker — the engine cannot tell which. Nothing survives between runs.
 */
#ifndef CHIDORI_ENGINE_H
#define CHIDORI_ENGINE_H

#include <stddef.h>
#include <stdbool.h>
#include <stdatomic.h>
#include <stdint.h>
#include "seam.h"

typedef struct engine_limits {
    uint64_t op_budget;       /* ticks (see docs/limits.md); 0 = off. CHIDORI_JS_OP_BUDGET */
    uint64_t mem_cap_bytes;   /* live engine heap ceiling; 0 = off. CHIDORI_JS_MEM_CAP_MB */
    uint64_t deadline_ms;     /* wall clock from run start; 0 = off. CHIDORI_JS_DEADLINE_MS */
    uint64_t max_alloc_bytes; /* largest single allocation; 0 = off. CHIDORI_JS_MAX_ALLOC_MB */
    size_t stack_bytes;       /* JS stack ceiling */
    /* In-process only (never sent to a worker): the engine halts at its next interrupt poll once
     * this reads non-zero (a member of a run asked to stop, runner/member_run.c; a cancelled
     * run, runner.c); NULL: never. */
    const atomic_int *stop;
} engine_limits;

#define ENGINE_DEFAULT_OP_BUDGET 5000000000ull
#define ENGINE_DEFAULT_MEM_CAP_MB 4096ull
#define ENGINE_DEFAULT_MAX_ALLOC_MB 1024ull
#define ENGINE_DEFAULT_STACK_BYTES ((size_t)1 << 20)

/* The CHIDORI_JS_* settings (checked when the settings were built; NULL: the defaults). */
struct settings;
void engine_limits_from_settings(engine_limits *limits, const struct settings *s);

typedef enum engine_mode {
    ENGINE_AGENT,  /* an ES module with an entrypoint; output is the handler's result */
    ENGINE_SCRIPT, /* a plain script (chidori eval); no entrypoint, no output */
} engine_mode;

/* The engine's only way out (seam.h): `call` for the agent's ops, `internal` for module loads. */
typedef seam_call_fn engine_call_fn;
typedef seam engine_seam;

struct engine_result;

typedef struct engine_config {
    engine_mode mode;
    const char *entry;       /* AGENT: specifier of the entry module, resolved by the host */
    const char *script;      /* SCRIPT: source text (NUL-terminated) */
    size_t script_len;
    const char *script_name; /* SCRIPT: name shown in stack traces */
    const char *input_json;  /* AGENT: the input object as JSON text */
    uint64_t seed;           /* Math.random seed (captured by the host) */
    int64_t clock_start_ms;  /* the virtual clock's start (captured by the host) */
    bool frozen_clock;       /* CHIDORI_TS_DATE=frozen: Date always reads clock_start_ms */
    bool fixed_random;       /* CHIDORI_TS_RANDOM=fixed: Math.random from ENGINE_FIXED_SEED, not seed */
    engine_limits limits;
    engine_seam seam;
    /* Called with the outcome before the runtime is torn down (NULL: none): a disposable worker
     * sends it at once and need not wait for the teardown at all. */
    void (*on_result)(void *ctx, const struct engine_result *res);
    void *on_result_ctx;
    /* The process exits right after this run (a one-shot CLI, a disposable worker): the runtime is
     * not torn down, the exit returns its memory at once (freeing it object by object was a fifth
     * of a hello run's instructions). Ignored under AddressSanitizer, whose leak check wants it
     * freed. Never set where another run may follow in the same process (serve, nested agents). */
    bool exit_after;
} engine_config;

#define ENGINE_FIXED_SEED 0x6368696461726931ull

typedef enum engine_limit_kind {
    LIMIT_NONE = 0,
    LIMIT_BUDGET,
    LIMIT_DEADLINE,
    LIMIT_MEMORY,
    LIMIT_ALLOCATION,
} engine_limit_kind;

typedef enum engine_status {
    RUN_COMPLETED,
    RUN_FAILED,
    RUN_PAUSED, /* the host suspended the run (an input nobody can answer now); see host_pending */
} engine_status;

/* An agent's output, as compact JSON, is at most this long: it must fit, escaped inside a Done
 * frame, under the 64 MiB frame cap, and it is stored with the run. */
#define ENGINE_OUTPUT_MAX_BYTES ((size_t)16 << 20)

typedef struct engine_result {
    engine_status status;
    char *output_json;       /* RUN_COMPLETED in AGENT mode: compact JSON */
    char *error;             /* RUN_FAILED: message, then the JS stack when there is one */
    engine_limit_kind limit; /* which limit ended the run, if one did */
    bool input_invalid;      /* RUN_FAILED: the input did not match run()'s inputSchema; nothing ran */
    uint64_t ticks;          /* CPU budget ticks the run counted, what the tree charged it included */
} engine_result;

int engine_run(const engine_config *cfg, engine_result *result);
/* Build a runtime, context and prelude ahead of any run, for the next engine_run of this process
 * to take (a fork server prepares one before it forks: each worker starts its run on its copy).
 * 0, or -1 when it could not (engine_run then builds its own). Not thread-safe: single-threaded
 * processes only. */
int engine_prepare(void);
/* For a process forked from one that prepared an engine and that has time before its run (a
 * server's warm worker): copies the prepared engine's set-up pages now (arena_copy_ahead) rather
 * than one copy-on-write fault at a time during the run. false when this process has no prepared
 * engine (nothing done). */
bool engine_prepared_copy_ahead(void);
/* The same, on a thread of its own with a stack sized for the engine's limit: for nested agents
 * (each needs its own native stack) and for callers whose stack is small. */
int engine_run_on_thread(const engine_config *cfg, engine_result *result);
void engine_result_free(engine_result *result);

/* The engine this build runs guest code on, for `chidori --version`: "QuickJS 2025-04-26", or
 * "quickjs-ng <version>" on the default engine (QuickJS's version under make ENGINE=quickjs). */
const char *engine_name(void);

/* Finds ICU for Intl now where it is loaded with dlopen (a worker calls it before confinement);
 * linked in (the static worker), or without this call, ICU is set up on first use. */
void engine_intl_preload(void);

#endif
