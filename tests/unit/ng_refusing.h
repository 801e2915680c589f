/* ng_refusing.h — a JSMallocFunctions that refuses one chosen allocation of the engine (or that one
 * and every later one, as a memory cap does), for the unit tests that sweep every allocation point
 * of a compile or a run. refuse_at 0 refuses nothing and counts nothing; any other value counts
 * every allocation in `seen`. With trace set, the stack of the first refusal is printed (which
 * point a sanitizer report came at). AddressSanitizer builds only: there every block of ng goes
 * through these functions, so the count is exact; a release build takes small blocks from ng's
 * arenas. */
#ifndef CHIDORI_TEST_NG_REFUSING_H
#define CHIDORI_TEST_NG_REFUSING_H

#include "quickjs.h"

#include <malloc.h>
#include <stdbool.h>
#include <stdlib.h>

#if defined(CHIDORI_ENGINE_NG) && defined(__SANITIZE_ADDRESS__)

static long seen, refuse_at;
static bool refuse_after, trace;
void __sanitizer_print_stack_trace(void);

static bool refused(void)
{
    if (refuse_at <= 0) return false;
    seen++;
    if (trace && seen == refuse_at) __sanitizer_print_stack_trace();
    return refuse_after ? seen >= refuse_at : seen == refuse_at;
}
static void *inj_calloc(void *opaque, size_t count, size_t size)
{
    (void)opaque;
    return refused() ? NULL : calloc(count, size);
}
static void *inj_malloc(void *opaque, size_t size)
{
    (void)opaque;
    return refused() ? NULL : malloc(size);
}
static void inj_free(void *opaque, void *ptr) { (void)opaque; free(ptr); }
static void *inj_realloc(void *opaque, void *ptr, size_t size)
{
    (void)opaque;
    if (size && refused()) return NULL;
    return realloc(ptr, size);
}
static size_t inj_usable(const void *ptr) { return malloc_usable_size((void *)ptr); }
static const JSMallocFunctions injecting = {inj_calloc, inj_malloc, inj_free, inj_realloc, inj_usable};

/* Counting from here, refusing allocation `at` (and every later one when after). */
static void refuse_from(long at, bool after)
{
    seen = 0;
    refuse_at = at;
    refuse_after = after;
}

#endif
#endif
