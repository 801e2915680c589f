/* limits.h — per-run resource accounting for the engine: the metered allocator QuickJS uses,
 * and the interrupt handler that enforces the CPU budget and the wall-clock deadline. */
#ifndef CHIDORI_LIMITS_H
#define CHIDORI_LIMITS_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include "quickjs.h"
#include "engine/engine.h"

#ifdef CHIDORI_ENGINE_NG
/* quickjs-ng (the engine; `make ENGINE=quickjs` builds on QuickJS instead) keeps its allocation counters private and hands
 * the allocator only an opaque pointer: the metered allocator keeps these counters itself. */
typedef struct JSMallocState {
    size_t malloc_count;
    size_t malloc_size;
    size_t malloc_limit;
    void *opaque;
} JSMallocState;
#endif

typedef struct run_limits {
    engine_limits cfg;
    uint64_t polls;        /* interrupt-handler calls so far */
    uint64_t budget_polls; /* polls allowed (op_budget / ticks per poll), 0 = no budget */
    uint64_t loop_ticks;   /* ticks charged by the engine's own loop, not yet a whole poll */
    uint64_t deadline_ns;  /* CLOCK_MONOTONIC deadline, 0 = none */
    engine_limit_kind tripped;
    bool halted;           /* the host ended the run (pause, divergence): no more guest code */
    size_t refused_bytes;  /* the allocation that hit the memory ceiling or the allocation cap */
    const JSMallocState *heap; /* the runtime's allocation counters (seen on its first allocation) */
    struct engine_arena *arena; /* set-up's arena (arena.h), NULL once guest code may run: malloc */
    uint64_t tree_charged; /* ticks charged by the tree budget (nested runs that ended), counted in polls */
#ifdef CHIDORI_ENGINE_NG
    JSMallocState ng_heap; /* the counters 'heap' points at; kept across run_limits_init */
#endif
} run_limits;

/* QuickJS counts down this many ticks between calls of the interrupt handler. */
#define TICKS_PER_POLL 10000u

extern const JSMallocFunctions metered_malloc_functions;

void run_limits_init(run_limits *l, const engine_limits *cfg);
/* Arm the memory ceiling; called once the context and prelude exist (a tiny ceiling must never
 * make context creation itself fail). */
void run_limits_arm_memory(run_limits *l, JSRuntime *rt);
int run_limits_interrupt(JSRuntime *rt, void *opaque);
/* Also checked between jobs by the engine's loop; returns nonzero once a limit has tripped. */
int run_limits_check(run_limits *l);
/* Charges the engine's loop for work it does in C between guest calls (a timer turn), so the
 * budget measures that work too; returns nonzero once the budget is spent. */
int run_limits_charge(run_limits *l, uint64_t ticks);
/* Ticks this run has counted so far (its own and what the tree charged it). */
uint64_t run_limits_ticks(const run_limits *l);
/* Charges the run ticks spent on its behalf (seam.h's meter: nested runs), which count against its
 * budget as its own do; returns nonzero once the budget is spent. */
int run_limits_charge_tree(run_limits *l, uint64_t ticks);
/* SharedArrayBuffer memory from the runtime's own (metered) allocator, so it counts against the
 * run's memory ceiling like any other allocation. quickjs-ng needs these hooks for a growable
 * SharedArrayBuffer, which commits its maxByteLength up front. */
void run_limits_install_sab(JSRuntime *rt);
/* The precise message for the limit that tripped. */
char *run_limits_message(const run_limits *l);

#endif
