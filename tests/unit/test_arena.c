/* test_arena.c — the engine's set-up arena (src/engine/arena.c) and the metered allocator's use of
 * it (src/engine/limits.c). The engine uses the arena only outside AddressSanitizer builds; these
 * tests call it directly, so the AddressSanitizer build runs its code too. They check that an arena
 * allocation is counted as the same malloc'd allocation would be (usable size and bookkeeping),
 * that the memory ceiling and the single-allocation cap refuse it as they refuse malloc's, that
 * free and realloc give the counters back exactly, that realloc moves an allocation out of the
 * arena once set-up is over, and that a full arena falls back to malloc. */
#define _GNU_SOURCE
#include "unit.h"
#include "engine/arena.h"
#include "engine/limits.h"

#include <malloc.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

TEST(arena_sizes_and_reuses_like_its_contract)
{
    engine_arena *a = arena_acquire();
    CHECK(a != NULL);
    int local;
    CHECK(!arena_owns(&local));
    void *m = malloc(40);
    CHECK(!arena_owns(m));
    free(m);

    size_t sizes[] = {0, 1, 24, 25, 40, 100, 1000, 4096};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        char *p = arena_alloc(a, sizes[i]);
        CHECK(p != NULL && arena_owns(p));
        CHECK((uintptr_t)p % 16 == 0);
        size_t n = sizes[i], want = n + 8 <= 32 ? 24 : ((n + 8 + 15) & ~(size_t)15) - 8;
        CHECK(arena_usable(p) == want);
        memset(p, 0xab, arena_usable(p)); /* the header of the next must survive this */
    }
    /* freeing the newest gives its space back; an older one's is kept until release */
    size_t before = arena_used(a);
    char *x = arena_alloc(a, 100), *y = arena_alloc(a, 50);
    arena_free(x);
    CHECK(arena_used(a) == before + 112 + 64);
    arena_free(y);
    CHECK(arena_used(a) == before + 112);
    /* an older one's space goes to the next request of its very size */
    char *o1 = arena_alloc(a, 100), *o2 = arena_alloc(a, 100), *o3 = arena_alloc(a, 30);
    arena_free(o1);
    arena_free(o2);
    size_t mark = arena_used(a);
    CHECK(arena_alloc(a, 200) != o1 && arena_used(a) > mark); /* another size: from the end */
    char *r1 = arena_alloc(a, 97), *r2 = arena_alloc(a, 104), *r3 = arena_alloc(a, 100);
    CHECK((r1 == o2 && r2 == o1) || (r1 == o1 && r2 == o2));
    CHECK(arena_usable(r1) == 104 && arena_usable(r2) == 104 && r3 != o1 && r3 != o2);
    CHECK(arena_usable(o3) == 40);
    /* the newest grows in place; an older one only shrinks in place */
    char *z = arena_alloc(a, 10);
    CHECK(arena_resize(a, z, 500) && arena_usable(z) == 504);
    CHECK(arena_resize(a, z, 100) && arena_usable(z) == 104);
    char *w = arena_alloc(a, 10);
    CHECK(!arena_resize(a, z, 300));
    CHECK(arena_resize(a, z, 20) && arena_usable(z) == 104);
    CHECK(arena_usable(w) == 24);
    /* a request too large for it, or past the end, is refused (the caller mallocs) */
    CHECK(arena_alloc(a, ARENA_SLOT_BYTES) == NULL);
    size_t got = 0;
    while (arena_alloc(a, 60000)) got++;
    CHECK(got > 0 && got < ARENA_SLOT_BYTES / 60000 + 1);
    CHECK(arena_alloc(a, 8) != NULL || arena_used(a) + 32 > ARENA_SLOT_BYTES);

    /* a released arena comes back empty and zeroed */
    arena_release(a);
    engine_arena *b = arena_acquire();
    CHECK(b != NULL);
    char *q = arena_alloc(b, 64);
    CHECK(q != NULL);
    for (int i = 0; i < 64; i++) CHECK(q[i] == 0);
    arena_release(b);
}

/* Whether the kernel offers transparent huge pages to a region that asks (enabled "always" or
 * "madvise"). */
static bool huge_pages_offered(void)
{
    char buf[128] = "";
    FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
    if (!f) return false;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    return strstr(buf, "[always]") || strstr(buf, "[madvise]");
}

/* kB of one field (e.g. "AnonHugePages") of the mapping holding p, from /proc/self/smaps; -1 if none */
static long smaps_kb_at(const void *p, const char *field)
{
    FILE *f = fopen("/proc/self/smaps", "r");
    if (!f) return -1;
    char line[512];
    bool in = false;
    long kb = -1;
    size_t n = strlen(field);
    while (fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' ')) {
            in = (uintptr_t)p >= lo && (uintptr_t)p < hi;
            continue;
        }
        long v;
        if (in && !strncmp(line, field, n) && line[n] == ':' && sscanf(line + n + 1, " %ld kB", &v) == 1) {
            kb = v;
            break;
        }
    }
    fclose(f);
    return kb;
}

static long huge_kb_at(const void *p) { return smaps_kb_at(p, "AnonHugePages"); }

/* A slot is one huge page's size and alignment, and where the kernel offers huge pages the
 * acquire's first mapping is one (a run's start then takes one fault for its set-up memory, not
 * 80); released, the slot's memory goes back whole. */
TEST(arena_slot_is_a_huge_page_where_the_kernel_offers_them)
{
    arena_prefer_huge_pages(); /* as a one-run process does */
    engine_arena *a = arena_acquire();
    CHECK(a != NULL);
    char *p = arena_alloc(a, 64);
    CHECK(p != NULL);
    uintptr_t slot = (uintptr_t)p & ~(uintptr_t)(ARENA_SLOT_BYTES - 1);
    CHECK(ARENA_SLOT_BYTES == (size_t)2 << 20);
    CHECK((uintptr_t)arena_region % ARENA_SLOT_BYTES == 0);
    CHECK((uintptr_t)p - slot < 64); /* p is its slot's first allocation */
    if (huge_pages_offered()) {
        CHECK(huge_kb_at(p) >= 2048);
    } else {
        fprintf(stderr, "note: this kernel offers no transparent huge pages; the slot's 4 KiB pages are not checked\n");
        CHECK(getenv("CHIDORI_TEST_STRICT") == NULL || strcmp(getenv("CHIDORI_TEST_STRICT"), "1") != 0);
    }
    arena_release(a);
    if (huge_pages_offered()) CHECK(huge_kb_at((void *)slot) == 0); /* no other slot is held here */
}

/* A process forked from the one that filled an arena shares its pages until it writes each one (a
 * copy-on-write fault apiece); arena_copy_ahead copies every page its allocations lie in, in one
 * call: what a server's warm worker does with its fork server's prepared engine while it waits for
 * its run (engine_prepared_copy_ahead). */
TEST(arena_copy_ahead_makes_a_forked_copy_of_its_pages_its_own)
{
    engine_arena *a = arena_acquire();
    CHECK(a != NULL);
    char *first = arena_alloc(a, 16);
    CHECK(first != NULL);
    for (int i = 0; i < 60; i++) { /* about 240 KiB, written by the parent */
        char *p = arena_alloc(a, 4000);
        CHECK(p != NULL);
        memset(p, i, 4000);
    }
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        long before = smaps_kb_at(first, "Private_Dirty");
        arena_copy_ahead(a);
        long after = smaps_kb_at(first, "Private_Dirty");
        if (!(before >= 0 && before < 64 && after >= 232)) {
            fprintf(stderr, "Private_Dirty of the arena in the child: %ld kB before, %ld kB after\n", before, after);
            _exit(1);
        }
        _exit(0);
    }
    CHECK(pid > 0);
    int st = 0;
    CHECK(waitpid(pid, &st, 0) == pid);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    arena_release(a);
    arena_copy_ahead(NULL); /* nothing to copy: no effect */
}

/* Whether the 4 KiB page holding p is in memory (mincore): -1 if that cannot be told. */
static int resident(const void *p)
{
    unsigned char v = 0;
    void *page = (void *)((uintptr_t)p & ~(uintptr_t)4095);
    return mincore(page, 4096, &v) == 0 ? (v & 1) : -1;
}

/* A process that runs engine after engine (arena_keep_pages: a server, a run's actors) keeps a
 * released slot's first MiB mapped, so the next acquire neither maps nor faults it in again (on
 * this VM a first write to a page traps to the hypervisor: 80 of them were a third of an
 * in-process session's CPU), and that acquire finds exactly what a slot given back to the system
 * holds, zeros; past that MiB the pages go back. Run in a child: the mode is the process's. */
TEST(arena_kept_slot_stays_mapped_and_comes_back_zero)
{
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        arena_keep_pages();
        engine_arena *a = arena_acquire();
        char *first = a ? arena_alloc(a, 16) : NULL;
        if (!first) _exit(2);
        char *last = first;
        for (int i = 0; i < 400; i++) { /* about 1.6 MiB, past what a slot keeps */
            char *p = arena_alloc(a, 4000);
            if (!p) _exit(3);
            memset(p, 0x5a, 4000);
            last = p;
        }
        memset(first, 0x5a, 16);
        char *past = first + ((size_t)5 << 18); /* 1.25 MiB in: past the kept MiB */
        if (!(last > past && resident(first) == 1 && resident(past) == 1)) _exit(4);
        arena_release(a);
        if (resident(first) != 1 || resident(first + ((size_t)1 << 20) - 4096) != 1) _exit(5); /* kept */
        if (resident(past) != 0) _exit(6);                                                    /* given back */
        engine_arena *b = arena_acquire(); /* the lowest free slot: the same one */
        if (b != a) _exit(7);
        struct rusage r0, r1;
        getrusage(RUSAGE_SELF, &r0);
        for (int i = 0; i < 200; i++) { /* 800 KiB again: all zero, and no page faulted in */
            unsigned char *p = arena_alloc(b, 4000);
            if (!p) _exit(8);
            for (int k = 0; k < 4000; k++)
                if (p[k]) _exit(9);
            memset(p, 1, 4000);
        }
        getrusage(RUSAGE_SELF, &r1);
        if (r1.ru_minflt - r0.ru_minflt > 8) {
            fprintf(stderr, "%ld page faults writing a kept slot again\n", r1.ru_minflt - r0.ru_minflt);
            _exit(10);
        }
        arena_release(b);
        _exit(0);
    }
    CHECK(pid > 0);
    int st = 0;
    CHECK(waitpid(pid, &st, 0) == pid);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) fprintf(stderr, "child status %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

/* glibc's usable size for a request of n (what the metered allocator charged before the arena) */
static size_t glibc_count(size_t n) { return n + 8 <= 32 ? 24 : ((n + 8 + 15) & ~(size_t)15) - 8; }

TEST(arena_sizes_are_glibcs)
{
#ifndef __SANITIZE_ADDRESS__ /* ASan's malloc reports the requested size */
    for (size_t n = 0; n < 5000; n += 7) {
        void *p = malloc(n);
        size_t u = malloc_usable_size(p);
        free(p);
        CHECK(u == glibc_count(n));
    }
#endif
}

/* The metered allocator with set-up's arena: QuickJS's JSMallocState as the runtime keeps it. */
TEST(arena_allocations_are_metered_as_malloc_ones)
{
    engine_limits cfg = {.max_alloc_bytes = 4096};
    run_limits l;
    memset(&l, 0, sizeof l);
    run_limits_init(&l, &cfg);
    l.arena = arena_acquire();
    CHECK(l.arena != NULL);
#ifdef CHIDORI_ENGINE_NG
    JSMallocState *s = &l.ng_heap;
    void *op = &l;
    s->malloc_limit = 100000;
#else
    JSMallocState st = {.malloc_limit = 100000, .opaque = &l};
    JSMallocState *s = &st;
    void *op = s;
#endif
    const JSMallocFunctions *mf = &metered_malloc_functions;
    size_t sizes[] = {1, 24, 100, 1000};
    void *ps[4];
    size_t sum = 0;
    for (int i = 0; i < 4; i++) {
        ps[i] = mf->js_malloc(op, sizes[i]);
        CHECK(ps[i] && arena_owns(ps[i]));
        CHECK(mf->js_malloc_usable_size(ps[i]) == glibc_count(sizes[i]));
        sum += glibc_count(sizes[i]) + 8;
        CHECK(s->malloc_size == sum);
    }
    CHECK(s->malloc_count == 4);
    /* the cap and the ceiling refuse arena allocations */
    CHECK(mf->js_malloc(op, 5000) == NULL && l.tripped == LIMIT_ALLOCATION);
    l.tripped = LIMIT_NONE;
    s->malloc_limit = sum + 100;
    CHECK(mf->js_malloc(op, 200) == NULL && l.tripped == LIMIT_MEMORY);
    CHECK(s->malloc_size == sum);
    l.tripped = LIMIT_NONE;
    s->malloc_limit = 100000;
    /* realloc in the arena: grown in place (newest), moved (older), counted as the new size */
    void *g = mf->js_realloc(op, ps[3], 2000);
    CHECK(g == ps[3]);
    sum += glibc_count(2000) - glibc_count(1000);
    CHECK(s->malloc_size == sum);
    ps[3] = g;
    memset(ps[1], 7, 24);
    void *mv = mf->js_realloc(op, ps[1], 300);
    CHECK(mv && mv != ps[1] && arena_owns(mv) && ((char *)mv)[23] == 7);
    sum += glibc_count(300) - glibc_count(24);
    CHECK(s->malloc_size == sum);
    ps[1] = mv;
    /* after set-up (no arena): a realloc of an arena allocation moves it to malloc */
    engine_arena *a = l.arena;
    l.arena = NULL;
    memset(ps[2], 9, 100);
    void *out = mf->js_realloc(op, ps[2], 150);
    CHECK(out && !arena_owns(out) && ((char *)out)[99] == 9);
    sum += malloc_usable_size(out) - glibc_count(100);
    CHECK(s->malloc_size == sum);
    ps[2] = out;
    /* and the ceiling still refuses a growing realloc of one */
    s->malloc_limit = sum + 10;
    CHECK(mf->js_realloc(op, ps[0], 3000) == NULL && l.tripped == LIMIT_MEMORY);
    CHECK(s->malloc_size == sum);
    s->malloc_limit = 100000;
    /* frees give back exactly what was counted */
    for (int i = 0; i < 4; i++) mf->js_free(op, ps[i]);
    CHECK(s->malloc_size == 0 && s->malloc_count == 0);
    arena_release(a);
}
