/* fnv.c — FNV-1a 64 (see fnv.h). Trusts nothing: any bytes hash. */
#include "util/fnv.h"

#include <stdio.h>

uint64_t fnv1a64_update(uint64_t h, const void *bytes, size_t n)
{
    const unsigned char *p = bytes;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

void fnv1a64_text(uint64_t h, char out[FNV1A64_TEXT_LEN])
{
    snprintf(out, FNV1A64_TEXT_LEN, "fnv1a64:%016llx", (unsigned long long)h);
}
