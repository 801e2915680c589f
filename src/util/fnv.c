/* fnv.c — FNV-1a 64 (see fnv.h). Trusts nothing: any bytes hash. */
#include "util/fnv.h"

#include <stdio.h>

uint64_t fnv1a64_update(uint64_t h, const void *bytes, size_t n)
{
    const unsigned char *p = bytes;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) { /* unrolled: module sources are hashed whole, every run */
        h = (h ^ p[i]) * 0x100000001b3ull;
        h = (h ^ p[i + 1]) * 0x100000001b3ull;
        h = (h ^ p[i + 2]) * 0x100000001b3ull;
        h = (h ^ p[i + 3]) * 0x100000001b3ull;
        h = (h ^ p[i + 4]) * 0x100000001b3ull;
        h = (h ^ p[i + 5]) * 0x100000001b3ull;
        h = (h ^ p[i + 6]) * 0x100000001b3ull;
        h = (h ^ p[i + 7]) * 0x100000001b3ull;
    }
    for (; i < n; i++) h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

void fnv1a64_text(uint64_t h, char out[FNV1A64_TEXT_LEN])
{
    snprintf(out, FNV1A64_TEXT_LEN, "fnv1a64:%016llx", (unsigned long long)h);
}
