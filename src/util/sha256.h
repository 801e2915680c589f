/* sha256.h — SHA-256 (FIPS 180-4) for workspace manifests; small, dependency-free. */
#ifndef CHIDORI_SHA256_H
#define CHIDORI_SHA256_H

#include <stddef.h>
#include <stdint.h>

typedef struct sha256_ctx {
    uint32_t h[8];
    uint64_t bytes;
    unsigned char block[64];
    size_t used;
} sha256_ctx;

void sha256_init(sha256_ctx *c);
void sha256_update(sha256_ctx *c, const void *data, size_t len);
void sha256_final(sha256_ctx *c, unsigned char out[32]);
/* Lowercase hex digest of data, into out (65 bytes with the NUL). */
void sha256_hex(const void *data, size_t len, char out[65]);
void sha256_hex_of(sha256_ctx *c, char out[65]);

#endif
