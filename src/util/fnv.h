/* fnv.h — FNV-1a 64 (offset 0xcbf29ce484222325, prime 0x100000001b3), the hash the snapshot
 * manifest fingerprints source files with, as the original chidori prints it ("fnv1a64:%016x").
 * Not a cryptographic hash: it tells an edited file from the recorded one, not a forged one.
 */
#ifndef CHIDORI_FNV_H
#define CHIDORI_FNV_H

#include <stddef.h>
#include <stdint.h>

#define FNV1A64_INIT 0xcbf29ce484222325ull
#define FNV1A64_TEXT_LEN 25 /* "fnv1a64:" + 16 hex + NUL */

/* Continue hash h over n bytes (start with FNV1A64_INIT). */
uint64_t fnv1a64_update(uint64_t h, const void *bytes, size_t n);
/* h as "fnv1a64:%016x" into out (FNV1A64_TEXT_LEN bytes). */
void fnv1a64_text(uint64_t h, char out[FNV1A64_TEXT_LEN]);

#endif
