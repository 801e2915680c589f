/* random.h — host-side randomness (getrandom) and run ids. Never used by the engine: guest
 * randomness is seeded from values the host captures here. */
#ifndef CHIDORI_RANDOM_H
#define CHIDORI_RANDOM_H

#include <stddef.h>
#include <stdint.h>

void random_bytes(void *out, size_t n);
uint64_t random_u64(void);
/* A version-4 UUID, lowercase, 36 characters + NUL. */
void uuid_v4(char out[37]);

#endif
