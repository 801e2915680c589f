/* heap_pages.c — see heap_pages.h. Owns nothing once it returns; trusts glibc's malloc to grow its
 * main heap with brk, to add M_TOP_PAD to each growth, and to take blocks under M_MMAP_THRESHOLD
 * from the heap. */
#define _GNU_SOURCE
#include "util/heap_pages.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#define HEAP_PAD ((size_t)8 << 20)       /* the growth marked for huge pages */
#define NO_TRIM ((size_t)1 << 30)        /* glibc's trim threshold: no trim, in effect */
#define MMAP_FROM ((size_t)32 << 20)     /* blocks this large get a mapping of their own (the ceiling
                                          * of glibc's sliding threshold on 64-bit) */
#define HUGE_PAGE ((uintptr_t)2 << 20)

void heap_prefer_huge_pages(void)
{
#if defined(__GLIBC__) && defined(MADV_HUGEPAGE) && !defined(__SANITIZE_ADDRESS__)
    if (mallopt(M_TOP_PAD, (int)HEAP_PAD) != 1) return;
    /* Setting the pad turns off glibc's sliding mmap threshold (which, after a large block is
     * freed, serves blocks of that size from the heap): without these two, every block of 128 KiB
     * or more would be mapped and unmapped anew, and fault its pages in each time (seen: a
     * builtin's copy loop went from 0.2 s to 6 s). So blocks under the sliding threshold's ceiling
     * come from the heap from the start, and the heap's top is never given back (one run, then
     * exit: a give-back and regrowth faults the same pages in again). */
    mallopt(M_MMAP_THRESHOLD, (int)MMAP_FROM);
    mallopt(M_TRIM_THRESHOLD, (int)NO_TRIM);
    char *start = sbrk(0);
    /* one block larger than what the heap has left: the heap grows by it and the pad, and freeing
     * it leaves the whole growth at the heap's top */
    char *volatile grow = malloc(256 << 10);
    if (!grow) return;
    grow[0] = 0;
    char *end = sbrk(0);
    free(grow);
    if (start == (char *)-1 || end == (char *)-1) return;
    uintptr_t lo = ((uintptr_t)start + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1), hi = (uintptr_t)end & ~(HUGE_PAGE - 1);
    if (hi > lo) madvise((void *)lo, hi - lo, MADV_HUGEPAGE); /* best effort */
#endif
}
