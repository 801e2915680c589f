/* arena.c — the engine's set-up arena (see arena.h). Owns the reserved range and its slots;
 * trusts its callers to free only what they allocated and to release an arena only once its
 * runtime is gone.
 *
 * Layout of a slot: allocations follow one another, each an 8-byte header holding its usable
 * size and then the allocation itself, 16-byte aligned. An allocation of n bytes takes
 * max(32, n + 8 rounded up to 16) bytes and has that less 8 usable: glibc's chunk arithmetic,
 * so the metered allocator counts an arena allocation as it would count the malloc'd one.
 * Freed allocations of up to 1 KiB are kept on a list per size and handed out again for a request
 * of the same size (set-up frees the old copies of the tables it grows). The range is reserved
 * without committing memory (MAP_NORESERVE): a page costs memory once set-up writes to it, or
 * once an acquire maps the first 320 KiB of its slot ahead (about what set-up takes, in one call
 * instead of a page fault per page).
 *
 * Huge pages: each slot is one 2 MiB, 2 MiB-aligned block, and in a process that runs one engine
 * and exits (arena_prefer_huge_pages) it is marked MADV_HUGEPAGE at its first acquire, so where
 * the kernel offers transparent huge pages (enabled "always" or "madvise") that first mapping is
 * one huge page: one fault and one page-table entry instead of 80. On a virtual machine whose every
 * new page costs a trap to the hypervisor (the paravirtualized guest this is built on: 80 pages
 * mapped ahead and then written took about 0.7 ms, one huge page about 0.2 ms) that is a tenth of
 * a hello run. Where huge pages are off, or none is free (the kernel falls back without a word),
 * it is 4 KiB pages as before. The cost is resident memory: the whole 2 MiB of a slot in use,
 * not its 320 KiB (docs/limits.md). A fork server (whose workers write into its prepared engine's
 * pages) and a server keep 4 KiB pages: an isolated server ran about 9% fewer sessions a second 32
 * at once with the fork server's slot in a huge page. A worker forked from a fork server without a
 * prepared engine builds its own, in a huge page (CHIDORI_SERVE_FORKSERVER_ENGINE=own).
 *
 * Kept slots: every chidori process but a worker (arena_keep_pages) keeps a released slot's first
 * MiB mapped instead of giving it back: a server running sessions in-process acquires and
 * releases slots all day, and given back with MADV_DONTNEED each acquire mapped its 80 pages anew
 * (about 90 faults a session, a third of an in-process session's CPU on this VM); a run's actors
 * and nested agents each took a fresh huge page, and gave it back at the cost of flushing the TLB
 * of every CPU the process's threads ran on. What was written is zeroed when the slot is next
 * acquired, so an acquired slot is all zero whichever way it was released, and a process's last
 * release costs nothing. A worker does not keep: a forked worker's slot is the fork server's
 * pages, which zeroing would copy one fault at a time. */
#define _GNU_SOURCE
#include "engine/arena.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#define HEADER 8
#define MAX_ONE ((size_t)64 << 10) /* larger requests go to malloc (glibc may map them apart) */
#define PREFAULT ((size_t)320 << 10) /* about what set-up takes (0.30 MiB) */
#define CLASSES 64                 /* freed allocations up to 1 KiB are kept for reuse, by span */
#define KEEP ((size_t)1 << 20)     /* what a released slot keeps mapped, at most (arena_keep_pages) */

struct engine_arena {
    char *base;          /* the slot's first byte */
    size_t cur;          /* offset of the next header; 8 modulo 16 */
    size_t high;         /* the furthest cur has been since acquire (pages to give back) */
    void *freed[CLASSES]; /* freed allocations by span / 16, linked through their first word */
    atomic_bool taken;
    bool huge;           /* marked MADV_HUGEPAGE (once per slot per process) */
    bool kept;           /* released and kept (arena_keep_pages): its first KEEP bytes stay mapped */
    size_t dirty;        /* of a kept slot, the bytes from base written since they were last zero */
};

char *arena_region; /* ARENA_SLOTS slots of ARENA_SLOT_BYTES, or NULL */
#define region arena_region
static pthread_once_t reserved = PTHREAD_ONCE_INIT;
static atomic_bool prefer_huge, keep_pages;

void arena_prefer_huge_pages(void) { atomic_store(&prefer_huge, true); }
void arena_keep_pages(void) { atomic_store(&keep_pages, true); }
static engine_arena slots[ARENA_SLOTS];

#define REGION_BYTES ((size_t)ARENA_SLOTS * ARENA_SLOT_BYTES)

/* The range, aligned to a slot's size (a huge page's) inside a reservation one slot larger. */
static void reserve(void)
{
    void *m = mmap(NULL, REGION_BYTES + ARENA_SLOT_BYTES, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED) return;
    char *r = (char *)(((uintptr_t)m + ARENA_SLOT_BYTES - 1) & ~(uintptr_t)(ARENA_SLOT_BYTES - 1));
    for (int i = 0; i < ARENA_SLOTS; i++) slots[i].base = r + (size_t)i * ARENA_SLOT_BYTES;
    __atomic_store_n(&region, r, __ATOMIC_RELEASE);
}

engine_arena *arena_acquire(void)
{
    pthread_once(&reserved, reserve);
    if (!__atomic_load_n(&region, __ATOMIC_ACQUIRE)) return NULL;
    for (int i = 0; i < ARENA_SLOTS; i++) {
        engine_arena *a = &slots[i];
        if (atomic_exchange(&a->taken, true)) continue;
        a->cur = a->high = HEADER;
        memset(a->freed, 0, sizeof a->freed);
#ifdef MADV_HUGEPAGE
        if (!a->huge && atomic_load(&prefer_huge)) {
            madvise(a->base, ARENA_SLOT_BYTES, MADV_HUGEPAGE); /* best effort: refused where huge pages are off */
            a->huge = true;
        }
#endif
#ifdef MADV_POPULATE_WRITE
        /* what set-up will write, mapped in one call rather than a fault per page (best effort);
         * a kept slot has it mapped already */
        if (!a->kept) madvise(a->base, PREFAULT, MADV_POPULATE_WRITE);
#endif
        if (a->kept) memset(a->base, 0, a->dirty); /* what a given-back slot would hold: zeros */
        a->kept = false;
        a->dirty = 0;
        return a;
    }
    return NULL;
}

void arena_release(engine_arena *a)
{
    if (!a) return;
    if (atomic_load(&keep_pages)) {
        /* kept: the first KEEP bytes stay mapped, and what was written of them is zeroed by the
         * next acquire (a process's last release then costs nothing); past KEEP, given back */
        a->dirty = a->high < KEEP ? a->high : KEEP;
        if (a->high > KEEP) madvise(a->base + KEEP, ARENA_SLOT_BYTES - KEEP, MADV_DONTNEED);
        a->kept = true;
    } else if (a->high > HEADER) {
        /* the whole slot: a huge page goes back whole (a part of one would split it); pages
         * never mapped cost nothing to drop. The next acquire finds zero pages again. */
        madvise(a->base, ARENA_SLOT_BYTES, MADV_DONTNEED);
    }
    a->cur = a->high = HEADER;
    memset(a->freed, 0, sizeof a->freed);
    atomic_store(&a->taken, false);
}

static engine_arena *arena_of(const void *p)
{
    return &slots[((uintptr_t)p - (uintptr_t)region) / ARENA_SLOT_BYTES];
}

/* Bytes a request of n takes, header included. */
static size_t span(size_t n) { return n + HEADER <= 32 ? 32 : (n + HEADER + 15) & ~(size_t)15; }

void *arena_alloc(engine_arena *a, size_t size)
{
    if (size > MAX_ONE) return NULL;
    size_t need = span(size);
    if (need / 16 < CLASSES && a->freed[need / 16]) { /* one freed earlier, of this very span */
        void **p = a->freed[need / 16];
        a->freed[need / 16] = *p;
        return p;
    }
    if (need > ARENA_SLOT_BYTES - a->cur) return NULL;
    char *h = a->base + a->cur;
    *(size_t *)h = need - HEADER;
    a->cur += need;
    if (a->cur > a->high) a->high = a->cur;
    return h + HEADER;
}

/* Whether p is a's newest allocation. */
static bool newest(const engine_arena *a, const char *p)
{
    return (size_t)(p - a->base) + arena_usable(p) == a->cur;
}

void arena_free(void *p)
{
    engine_arena *a = arena_of(p);
    size_t c = (arena_usable(p) + HEADER) / 16;
    if (newest(a, p)) {
        a->cur = (size_t)((char *)p - HEADER - a->base);
    } else if (c < CLASSES) {
        *(void **)p = a->freed[c];
        a->freed[c] = p;
    }
}

bool arena_resize(engine_arena *a, void *p, size_t size)
{
    if (!arena_owns(p) || arena_of(p) != a || size > MAX_ONE) return false;
    size_t need = span(size), have = arena_usable(p) + HEADER;
    if (!newest(a, p)) return need <= have; /* a shrink keeps its size; a growth moves */
    size_t at = (size_t)((char *)p - HEADER - a->base);
    if (need > ARENA_SLOT_BYTES - at) return false;
    *(size_t *)((char *)p - HEADER) = need - HEADER;
    a->cur = at + need;
    if (a->cur > a->high) a->high = a->cur;
    return true;
}

size_t arena_used(const engine_arena *a) { return a->cur - HEADER; }

void arena_copy_ahead(const engine_arena *a)
{
#ifdef MADV_POPULATE_WRITE
    if (a && a->high > HEADER) madvise(a->base, (a->high + 4095) & ~(size_t)4095, MADV_POPULATE_WRITE);
#endif
}
