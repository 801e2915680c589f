/* heap_pages.c — see heap_pages.h. Owns nothing once it returns; trusts glibc's malloc to grow its
 * main heap with brk and to keep M_TOP_PAD bytes at its top when it trims. */
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
#define MMAP_FROM ((size_t)4 << 20)      /* blocks this large or larger still get a mapping of their own */
#define HUGE_PAGE ((uintptr_t)2 << 20)

void heap_prefer_huge_pages(void)
{
#if defined(__GLIBC__) && defined(MADV_HUGEPAGE) && !defined(__SANITIZE_ADDRESS__)
    if (mallopt(M_TOP_PAD, (int)HEAP_PAD) != 1) return;
    mallopt(M_MMAP_THRESHOLD, (int)MMAP_FROM);
    char *start = sbrk(0);
    /* one block larger than what the heap has left: the heap grows by it and the pad, and freeing
     * it leaves the whole growth at the heap's top (a trim keeps the pad) */
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
