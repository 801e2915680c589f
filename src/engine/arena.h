/* arena.h — the engine's set-up arena: one bounded block per runtime, handed out with a bump
 * pointer while the runtime, context, intrinsics and prelude are built, so that those thousands of
 * small allocations skip malloc. The metered allocator (limits.c) decides when to use it and
 * charges every arena allocation against the run's memory exactly as a malloc'd one.
 *
 * All arenas are slots of one reserved address range, so whether a pointer is an arena's is an
 * address comparison on the pointer alone (QuickJS asks an allocation's usable size without
 * naming its runtime). Each allocation carries its usable size in the 8 bytes before it, sized
 * as glibc sizes a chunk for the same request, so the counted bytes are the same either way.
 * A freed arena allocation is reused: its space when it was the newest one, else (up to 1 KiB) by
 * a later request of its size; the rest is returned when the arena is released (after
 * JS_FreeRuntime). Thread-safe acquire and release;
 * one arena is used by one runtime, on one thread at a time. */
#ifndef CHIDORI_ARENA_H
#define CHIDORI_ARENA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ARENA_SLOT_BYTES ((size_t)2 << 20) /* one runtime's arena, a huge page (set-up takes about 0.3 MiB of it) */
#define ARENA_SLOTS 32                     /* runtimes with an arena at once; more use malloc */

typedef struct engine_arena engine_arena;

/* For a process that runs one engine and exits: slots acquired from now on are backed by a huge
 * page where the kernel offers them (arena.c says why; not for a server or a fork server). */
void arena_prefer_huge_pages(void);
/* For a process that runs engine after engine (a server, a run's actors and nested agents; not a
 * worker): a released slot keeps its first MiB mapped rather than giving it back to the system,
 * and the next acquire zeroes what was written of it, without mapping or faulting it in again. At
 * most ARENA_SLOTS MiB stay mapped this way (a slot in a huge page keeps its whole 2 MiB). */
void arena_keep_pages(void);
/* A free arena, empty; NULL when all are taken or the range could not be reserved. */
engine_arena *arena_acquire(void);
/* Gives the slot back to the pool: its pages back to the system, or (after arena_keep_pages) its
 * first MiB kept, to be zeroed by the next acquire. Every allocation
 * from it must be dead by then. NULL is fine. */
void arena_release(engine_arena *a);

/* size bytes, 16-byte aligned, or NULL when the arena has no room left (the caller uses malloc). */
void *arena_alloc(engine_arena *a, size_t size);
/* The reserved range (arena.c's; NULL until the first acquire reserves it). */
extern char *arena_region;

/* Whether p lies in any arena (any slot, acquired or not). Inline: asked on every free. */
static inline bool arena_owns(const void *p)
{
    const char *r = __atomic_load_n(&arena_region, __ATOMIC_ACQUIRE);
    return r && (uintptr_t)p - (uintptr_t)r < (size_t)ARENA_SLOTS * ARENA_SLOT_BYTES;
}
/* The usable size of an arena allocation (arena_owns(p) must hold): its header's. */
static inline size_t arena_usable(const void *p) { return *(const size_t *)((const char *)p - 8); }
/* Frees an arena allocation: its space is reused at once if it is its arena's newest, else (up to
 * 1 KiB) by a later allocation of the same size. */
void arena_free(void *p);
/* Resizes p (an allocation of a) in place when it is a's newest and the room is there, or when
 * it shrinks; returns false otherwise (then the caller allocates anew and copies). */
bool arena_resize(engine_arena *a, void *p, size_t size);
/* Bytes taken from the slot so far (allocations and their headers, freed ones included). */
size_t arena_used(const engine_arena *a);
/* Writes ahead every page a's allocations lie in (one madvise), so that a process forked from
 * the one that filled a copies them now rather than one fault at a time as its run writes them. */
void arena_copy_ahead(const engine_arena *a);

#endif
