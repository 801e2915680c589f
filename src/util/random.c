/* random.c — host-side randomness (see random.h). */
#include "util/random.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/random.h>

void random_bytes(void *out, size_t n)
{
    unsigned char *p = out;
    while (n) {
        ssize_t r = getrandom(p, n, 0);
        if (r < 0) {
            if (errno == EINTR) continue;
            perror("chidori: getrandom");
            abort();
        }
        p += r;
        n -= (size_t)r;
    }
}

uint64_t random_u64(void)
{
    uint64_t v;
    random_bytes(&v, sizeof v);
    return v;
}

void uuid_v4(char out[37])
{
    static const char hex[] = "0123456789abcdef";
    unsigned char b[16];
    random_bytes(b, sizeof b);
    b[6] = (unsigned char)((b[6] & 0x0F) | 0x40);
    b[8] = (unsigned char)((b[8] & 0x3F) | 0x80);
    /* 8-4-4-4-12 hex digits (by hand: snprintf with 16 conversions cost 6,000 instructions, and a
     * server makes two of these per session) */
    size_t o = 0;
    for (int i = 0; i < 16; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10) out[o++] = '-';
        out[o++] = hex[b[i] >> 4];
        out[o++] = hex[b[i] & 15];
    }
    out[o] = '\0';
}
