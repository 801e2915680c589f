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
    unsigned char b[16];
    random_bytes(b, sizeof b);
    b[6] = (unsigned char)((b[6] & 0x0F) | 0x40);
    b[8] = (unsigned char)((b[8] & 0x3F) | 0x80);
    snprintf(out, 37, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1], b[2],
             b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
}
