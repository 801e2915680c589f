/* ng_counting.h — a JSMallocFunctions that counts the engine's allocations, for the unit tests that
 * check how many blocks a loop makes per turn (in AddressSanitizer builds every block of ng goes
 * through the runtime's malloc functions; in a release build small blocks come from ng's arenas). */
#ifndef CHIDORI_TEST_NG_COUNTING_H
#define CHIDORI_TEST_NG_COUNTING_H

#include "quickjs.h"

#include <malloc.h>
#include <stdlib.h>

#if defined(CHIDORI_ENGINE_NG)

static long allocations;

static void *count_calloc(void *opaque, size_t count, size_t size)
{
    (void)opaque;
    allocations++;
    return calloc(count, size);
}
static void *count_malloc(void *opaque, size_t size)
{
    (void)opaque;
    allocations++;
    return malloc(size);
}
static void count_free(void *opaque, void *ptr) { (void)opaque; free(ptr); }
static void *count_realloc(void *opaque, void *ptr, size_t size) { (void)opaque; return realloc(ptr, size); }
static size_t count_usable(const void *ptr) { return malloc_usable_size((void *)ptr); }

static const JSMallocFunctions counting = {count_calloc, count_malloc, count_free, count_realloc, count_usable};

#endif
#endif
