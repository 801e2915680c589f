/* limits.c — per-run limits (see limits.h).
 *
 * CPU budget: QuickJS decrements a counter on every function call, backward jump and poll point
 * (our patches add poll points inside long builtins) and calls the interrupt handler every
 * TICKS_PER_POLL ticks. The budget is counted in those ticks, so it measures work, not time: it
 * does not advance while the run is blocked in a host effect, and a given program stops at the
 * same place every time. The deadline is wall-clock time from the start of the run and does
 * include time blocked in effects.
 *
 * Memory: every engine allocation goes through the functions below, charged at its usable size
 * (malloc_usable_size) plus bookkeeping, so the ceiling is exact at allocation time. An
 * allocation that would cross it, or that alone exceeds the single-allocation cap, fails; QuickJS
 * turns that into an out-of-memory error and the run ends.
 *
 * While the runtime is set up (run_limits.arena set), allocations come from the set-up arena
 * (arena.h) when it has room; they are charged the same way (their usable size, sized as glibc
 * would size them, plus bookkeeping) and the same ceiling and cap apply to them.
 *
 * Once a limit trips the handler keeps answering "interrupt", so no further guest code runs.
 */
#define _GNU_SOURCE
#include "engine/limits.h"
#include "engine/arena.h"
#include "util/clock.h"
#include "settings/settings.h"
#include "util/buf.h"

#include <errno.h>
#include <malloc.h>
#include <stdlib.h>
#include <time.h>
#include <string.h>

#define MALLOC_OVERHEAD 8

#ifdef CHIDORI_ENGINE_NG
/* quickjs-ng passes the runtime's opaque pointer (the run_limits) and counts nothing for us. */
#define ALLOC_ARG void *opaque
#define ALLOC_STATE(o) (&((run_limits *)(o))->ng_heap)
#define NG_OOM_RESERVE (64 * 1024)
/* quickjs-ng puts its block header (JSMallocBlockHeader, 8 bytes) in front of every
 * large block it asks us for, so a buffer of exactly the cap reaches us 8 bytes over it: the cap
 * applies to what the engine asked for, as on QuickJS */
#define NG_BLOCK_HEADER 8
#else
#define ALLOC_ARG JSMallocState *s_
#define ALLOC_STATE(o) (o)
#endif

static run_limits *limits_of(JSMallocState *s) { return s->opaque; }

/* An arena allocation (set-up's, arena.h) is known by its address alone: usable size is asked
 * without the runtime. */
static size_t usable(const void *p) { return arena_owns(p) ? arena_usable(p) : malloc_usable_size((void *)p); }

static int refuse(JSMallocState *s, size_t size, size_t grow)
{
    run_limits *l = limits_of(s);
    if (!l) return s->malloc_size + grow > s->malloc_limit;
#ifdef CHIDORI_ENGINE_NG
    if (l->cfg.max_alloc_bytes && size > l->cfg.max_alloc_bytes + NG_BLOCK_HEADER) {
        if (!l->tripped) l->tripped = LIMIT_ALLOCATION, l->refused_bytes = size - NG_BLOCK_HEADER;
        return 1;
    }
#else
    if (l->cfg.max_alloc_bytes && size > l->cfg.max_alloc_bytes) {
        if (!l->tripped) l->tripped = LIMIT_ALLOCATION, l->refused_bytes = size;
        return 1;
    }
#endif
#ifdef CHIDORI_ENGINE_NG
    /* quickjs-ng cannot raise our ceiling while it builds the out-of-memory error (QuickJS's
     * patch 0003 does): once the ceiling has been hit, the error may borrow this much above it */
    size_t limit = s->malloc_limit;
    if (l->tripped == LIMIT_MEMORY && limit < (size_t)-1 - NG_OOM_RESERVE) limit += NG_OOM_RESERVE;
    if (s->malloc_size + grow > limit) {
#else
    if (s->malloc_size + grow > s->malloc_limit) {
#endif
        if (!l->tripped) l->tripped = LIMIT_MEMORY, l->refused_bytes = size;
        return 1;
    }
    return 0;
}

static void *metered_malloc(ALLOC_ARG, size_t size)
{
#ifdef CHIDORI_ENGINE_NG
    JSMallocState *s = ALLOC_STATE(opaque);
#else
    JSMallocState *s = s_;
#endif
    if (s->opaque) limits_of(s)->heap = s;
    if (refuse(s, size, size)) return NULL;
    run_limits *l = limits_of(s);
    void *p = l && l->arena ? arena_alloc(l->arena, size) : NULL;
    if (!p) p = malloc(size);
    if (!p) return NULL;
    s->malloc_count++;
    s->malloc_size += usable(p) + MALLOC_OVERHEAD;
    return p;
}

static void metered_free(ALLOC_ARG, void *p)
{
#ifdef CHIDORI_ENGINE_NG
    JSMallocState *s = ALLOC_STATE(opaque);
#else
    JSMallocState *s = s_;
#endif
    if (!p) return;
    s->malloc_count--;
    s->malloc_size -= usable(p) + MALLOC_OVERHEAD;
    if (arena_owns(p))
        arena_free(p);
    else
        free(p);
}

static void *metered_realloc(ALLOC_ARG, void *p, size_t size)
{
#ifdef CHIDORI_ENGINE_NG
    JSMallocState *s = ALLOC_STATE(opaque);
    if (!p) return size ? metered_malloc(opaque, size) : NULL;
#else
    JSMallocState *s = s_;
    if (!p) return size ? metered_malloc(s, size) : NULL;
#endif
    size_t old = usable(p);
    if (size == 0) {
#ifdef CHIDORI_ENGINE_NG
        metered_free(opaque, p);
#else
        metered_free(s, p);
#endif
        return NULL;
    }
    if (refuse(s, size, size > old ? size - old : 0)) return NULL;
    void *q;
    if (arena_owns(p)) { /* grown in place if it is the arena's newest, else moved (to malloc after set-up) */
        engine_arena *a = limits_of(s) ? limits_of(s)->arena : NULL;
        if (a && arena_resize(a, p, size)) {
            q = p;
        } else {
            q = a ? arena_alloc(a, size) : NULL;
            if (!q) q = malloc(size);
            if (!q) return NULL;
            memcpy(q, p, old < size ? old : size);
            arena_free(p);
        }
    } else {
        q = realloc(p, size);
        if (!q) return NULL;
    }
    s->malloc_size += usable(q);
    s->malloc_size -= old;
    return q;
}

#ifdef CHIDORI_ENGINE_NG
static void *metered_calloc(void *opaque, size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size) return NULL;
    void *p = metered_malloc(opaque, count * size);
    if (p) memset(p, 0, count * size);
    return p;
}

const JSMallocFunctions metered_malloc_functions = {
    metered_calloc,
    metered_malloc,
    metered_free,
    metered_realloc,
    usable,
};
#else
const JSMallocFunctions metered_malloc_functions = {
    metered_malloc,
    metered_free,
    metered_realloc,
    usable,
};
#endif


/* A SharedArrayBuffer's memory, with the count of the buffers that share it in front (a run has
 * one thread; only the engine's own copies, e.g. a structured clone, share one). The header keeps
 * the data 16 bytes in, as aligned as the allocator's blocks (8), enough for any element type. */
typedef struct sab_header {
    size_t refs;
    size_t unused;
} sab_header;

static sab_header *sab_header_of(void *data) { return (sab_header *)((char *)data - sizeof(sab_header)); }

static void *sab_alloc(void *opaque, size_t size)
{
    if (size > SIZE_MAX - sizeof(sab_header)) return NULL;
    sab_header *h = js_malloc_rt(opaque, sizeof(sab_header) + size);
    if (!h) return NULL;
    h->refs = 1;
    return (char *)h + sizeof(sab_header);
}

static void sab_dup(void *opaque, void *ptr)
{
    (void)opaque;
    sab_header_of(ptr)->refs++;
}

static void sab_free(void *opaque, void *ptr)
{
    sab_header *h = sab_header_of(ptr);
    if (--h->refs == 0) js_free_rt(opaque, h);
}

void run_limits_install_sab(JSRuntime *rt)
{
    JSSharedArrayBufferFunctions sf = {.sab_alloc = sab_alloc, .sab_free = sab_free, .sab_dup = sab_dup,
                                       .sab_opaque = rt};
    JS_SetSharedArrayBufferFunctions(rt, &sf);
}

void run_limits_init(run_limits *l, const engine_limits *cfg)
{
#ifdef CHIDORI_ENGINE_NG
    /* the counters belong to the runtime, which may outlive a run's limits (a prepared runtime) */
    JSMallocState keep = l->heap == &l->ng_heap ? l->ng_heap : (JSMallocState){.malloc_limit = (size_t)-1};
    *l = (run_limits){.cfg = *cfg};
    l->ng_heap = keep;
    l->ng_heap.opaque = l;
#else
    *l = (run_limits){.cfg = *cfg};
#endif
    if (cfg->op_budget) {
        l->budget_polls = cfg->op_budget / TICKS_PER_POLL;
        if (!l->budget_polls) l->budget_polls = 1;
    }
    if (cfg->deadline_ms) l->deadline_ns = clock_monotonic_ns() + cfg->deadline_ms * 1000000ull;
}

void run_limits_arm_memory(run_limits *l, JSRuntime *rt)
{
#ifdef CHIDORI_ENGINE_NG
    l->ng_heap.malloc_limit = l->cfg.mem_cap_bytes ? (size_t)l->cfg.mem_cap_bytes : (size_t)-1;
#else
    JS_SetMemoryLimit(rt, l->cfg.mem_cap_bytes ? (size_t)l->cfg.mem_cap_bytes : (size_t)-1);
#endif
    /* Collect cycles once the heap has grown past what set-up left, and well before the ceiling
     * (QuickJS does not collect and retry when an allocation hits the limit). */
    size_t used = l->heap ? l->heap->malloc_size : 0, threshold = used + ((size_t)1 << 20);
    if (l->cfg.mem_cap_bytes && threshold > l->cfg.mem_cap_bytes / 2) threshold = (size_t)(l->cfg.mem_cap_bytes / 2);
    JS_SetGCThreshold(rt, threshold);
}

/* Every limit, once tripped, stops the run: memory too. A refused allocation usually ends the run
 * on the spot as QuickJS's uncatchable out-of-memory error, but a few QuickJS paths tolerate the
 * failure without raising it (a stack trace too long for the allocation cap is left out, an
 * internal table that cannot grow is kept as it is); answering "stop" from then on ends the run
 * at the next poll point there too, with the memory message, instead of letting it go on past its
 * limit until the tick budget. */
static bool stopping(const run_limits *l) { return l->halted || l->tripped != LIMIT_NONE; }

int run_limits_check(run_limits *l)
{
    if (stopping(l)) return 1;
    if (l->deadline_ns && clock_monotonic_ns() >= l->deadline_ns) {
        l->tripped = LIMIT_DEADLINE;
        return 1;
    }
    return 0;
}

int run_limits_interrupt(JSRuntime *rt, void *opaque)
{
    run_limits *l = opaque;
    if (stopping(l)) return 1;
    if (l->cfg.stop && atomic_load(l->cfg.stop)) { /* a stopped member: no more guest code */
        l->halted = true;
        return 1;
    }
    l->polls++;
    if (l->budget_polls && l->polls > l->budget_polls) {
        l->tripped = LIMIT_BUDGET;
        return 1;
    }
    return run_limits_check(l);
}

int run_limits_charge(run_limits *l, uint64_t ticks)
{
    l->loop_ticks += ticks;
    if (l->loop_ticks >= TICKS_PER_POLL) {
        l->polls += l->loop_ticks / TICKS_PER_POLL;
        l->loop_ticks %= TICKS_PER_POLL;
        if (l->budget_polls && l->polls > l->budget_polls && !l->tripped) l->tripped = LIMIT_BUDGET;
    }
    return run_limits_check(l);
}

uint64_t run_limits_ticks(const run_limits *l) { return l->polls * TICKS_PER_POLL + l->loop_ticks; }

int run_limits_charge_tree(run_limits *l, uint64_t ticks)
{
    if (!ticks) return run_limits_check(l);
    l->tree_charged += ticks;
    return run_limits_charge(l, ticks);
}

char *run_limits_message(const run_limits *l)
{
    switch (l->tripped) {
    case LIMIT_BUDGET:
        if (l->tree_charged)
            return xasprintf("CPU budget exhausted: the run and the agents it started used its %llu ticks "
                             "(CHIDORI_JS_OP_BUDGET, one budget for the whole agent tree); raise it or do less work",
                             (unsigned long long)l->cfg.op_budget);
        return xasprintf("CPU budget exhausted: the run used its %llu ticks (CHIDORI_JS_OP_BUDGET)",
                         (unsigned long long)l->cfg.op_budget);
    case LIMIT_DEADLINE:
        return xasprintf("wall-clock deadline exceeded: the run passed %llu ms (CHIDORI_JS_DEADLINE_MS)",
                         (unsigned long long)l->cfg.deadline_ms);
    case LIMIT_MEMORY:
        return xasprintf("memory ceiling reached: the run needed more than %llu MiB (CHIDORI_JS_MEM_CAP_MB)",
                         (unsigned long long)(l->cfg.mem_cap_bytes >> 20));
    case LIMIT_ALLOCATION:
        return xasprintf("allocation cap reached: one allocation of %zu bytes is over the %llu MiB cap "
                         "(CHIDORI_JS_MAX_ALLOC_MB)",
                         l->refused_bytes, (unsigned long long)(l->cfg.max_alloc_bytes >> 20));
    default:
        return xstrdup("no limit");
    }
}

/* ---- configuration ---- */

void engine_limits_from_settings(engine_limits *l, const settings *s)
{
    l->op_budget = settings_u64(s, "CHIDORI_JS_OP_BUDGET");
    l->mem_cap_bytes = settings_u64(s, "CHIDORI_JS_MEM_CAP_MB") << 20; /* at most 2^40 MiB (the table's range) */
    l->deadline_ms = settings_u64(s, "CHIDORI_JS_DEADLINE_MS");
    l->max_alloc_bytes = settings_u64(s, "CHIDORI_JS_MAX_ALLOC_MB") << 20;
    l->stack_bytes = ENGINE_DEFAULT_STACK_BYTES;
}
