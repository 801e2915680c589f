/* test_strmap.c — the string-keyed hash map (src/util/strmap.c): its hash against the published
 * SipHash-2-4 vectors, and insert / replace / remove / walk against a plain array model, through
 * growth, shrinking and the backward shift of removals (with a degenerate key that makes every
 * entry collide, so runs wrap around the table). */
#define _GNU_SOURCE
#include "unit.h"
#include "util/buf.h"
#include "util/strmap.h"

#include <stdlib.h>
#include <string.h>

TEST(strmap_siphash_matches_the_reference_vectors)
{
    unsigned char msg[16];
    for (int i = 0; i < 16; i++) msg[i] = (unsigned char)i;
    uint64_t k0 = 0x0706050403020100ULL, k1 = 0x0f0e0d0c0b0a0908ULL;
    CHECK(strmap_siphash(k0, k1, msg, 0, 2, 4) == 0x726fdb47dd0e0e31ULL);
    CHECK(strmap_siphash(k0, k1, msg, 1, 2, 4) == 0x74f839c593dc67fdULL);
    CHECK(strmap_siphash(k0, k1, msg, 8, 2, 4) == 0x93f5f5799a932462ULL);
    CHECK(strmap_siphash(k0, k1, msg, 15, 2, 4) == 0xa129ca6149be45e5ULL);
}

/* The 128-bit mode (the bytecode cache's id and tag) against the reference's vectors_sip128, key
 * 00..0f and messages 00..(n-1): lengths 0 to 3 (the partial last block) ... */
TEST(strmap_siphash128_matches_the_reference_vectors)
{
    static const unsigned char want[4][16] = {
        {0xa3, 0x81, 0x7f, 0x04, 0xba, 0x25, 0xa8, 0xe6, 0x6d, 0xf6, 0x72, 0x14, 0xc7, 0x55, 0x02, 0x93},
        {0xda, 0x87, 0xc1, 0xd8, 0x6b, 0x99, 0xaf, 0x44, 0x34, 0x76, 0x59, 0x11, 0x9b, 0x22, 0xfc, 0x45},
        {0x81, 0x77, 0x22, 0x8d, 0xa4, 0xa4, 0x5d, 0xc7, 0xfc, 0xa3, 0x8b, 0xde, 0xf6, 0x0a, 0xff, 0xe4},
        {0x9c, 0x70, 0xb6, 0x0c, 0x52, 0x67, 0xa9, 0x4e, 0x5f, 0x33, 0xb6, 0xb0, 0x29, 0x85, 0xed, 0x51},
    };
    unsigned char msg[16];
    for (int i = 0; i < 16; i++) msg[i] = (unsigned char)i;
    uint64_t k0 = 0x0706050403020100ULL, k1 = 0x0f0e0d0c0b0a0908ULL;
    for (int n = 0; n < 4; n++) {
        uint64_t h[2];
        strmap_siphash128(k0, k1, msg, (size_t)n, h);
        unsigned char got[16];
        for (int i = 0; i < 8; i++) {
            got[i] = (unsigned char)(h[0] >> (8 * i));
            got[8 + i] = (unsigned char)(h[1] >> (8 * i));
        }
        CHECK(memcmp(got, want[n], 16) == 0);
    }
    /* ... and whole blocks: the same bytes give the same hash, one changed byte another */
    uint64_t a[2], b[2];
    strmap_siphash128(k0, k1, msg, 16, a);
    strmap_siphash128(k0, k1, msg, 16, b);
    CHECK(a[0] == b[0] && a[1] == b[1]);
    msg[9] ^= 1;
    strmap_siphash128(k0, k1, msg, 16, b);
    CHECK(a[0] != b[0] && a[1] != b[1]);
}

/* n keys "k0".."k{n-1}", inserted, half removed, re-inserted with other values; checked against
 * the model after every step. */
static int model_run(strmap *m, int n)
{
    char **keys = xcalloc((size_t)n, sizeof *keys);
    int *present = xcalloc((size_t)n, sizeof *present);
    int bad = 0;
    for (int i = 0; i < n; i++) keys[i] = xasprintf("k%d", i);
    for (int i = 0; i < n; i++) {
        if (strmap_put(m, keys[i], &present[i]) != NULL) bad++;
        present[i] = 1;
    }
    if (strmap_len(m) != (size_t)n) bad++;
    for (int i = 0; i < n; i += 2) {
        if (strmap_remove(m, keys[i]) != &present[i]) bad++;
        if (strmap_remove(m, keys[i]) != NULL) bad++;
        present[i] = 0;
        for (int j = 0; j < n; j += 7) /* every key still right after each removal's shifts */
            if (strmap_get(m, keys[j]) != (present[j] ? &present[j] : NULL)) bad++;
    }
    for (int i = 1; i < n; i += 2)
        if (strmap_put(m, keys[i], keys[i]) != &present[i]) bad++; /* a replacement */
    size_t pos = 0, walked = 0;
    const char *k;
    void *v;
    while (strmap_next(m, &pos, &k, &v)) {
        walked++;
        int i = atoi(k + 1);
        if (i % 2 != 1 || v != keys[i] || k != keys[i]) bad++;
    }
    if (walked != (size_t)n / 2 || strmap_len(m) != (size_t)n / 2) bad++;
    for (int i = 0; i < n; i++) {
        void *want = i % 2 ? keys[i] : NULL;
        if (strmap_get(m, keys[i]) != want) bad++;
        strmap_remove(m, keys[i]);
    }
    if (strmap_len(m) != 0 || m->cap > 16) bad++; /* shrunk back as it emptied */
    for (int i = 0; i < n; i++) free(keys[i]);
    free(keys);
    free(present);
    return bad;
}

TEST(strmap_agrees_with_a_model_through_growth_and_removal)
{
    strmap m;
    strmap_init(&m);
    CHECK(strmap_get(&m, "nothing") == NULL && strmap_remove(&m, "nothing") == NULL);
    CHECK(model_run(&m, 3000) == 0);
    CHECK(strmap_get(&m, "") == NULL);
    int x;
    CHECK(strmap_put(&m, "", &x) == NULL && strmap_get(&m, "") == &x);
    strmap_free(&m);
}

TEST(strmap_stays_right_when_every_key_collides)
{
    /* Eight keys whose home is the last slot of a 16-slot table: one run that wraps around the
     * end. Removing each of them, in several orders, must leave the others reachable. */
    for (int round = 0; round < 20; round++) {
        strmap m;
        strmap_init(&m);
        char *keys[8];
        int found = 0;
        for (int i = 0; found < 8 && i < 100000; i++) {
            char name[32];
            snprintf(name, sizeof name, "c%d", i);
            if ((strmap_siphash(m.k0, m.k1, name, strlen(name), 1, 3) & 15) == 15) keys[found++] = xstrdup(name);
        }
        CHECK(found == 8);
        for (int i = 0; i < 8; i++) strmap_put(&m, keys[i], keys[i]);
        CHECK(m.cap == 16 && strmap_len(&m) == 8);
        bool gone[8] = {false};
        for (int step = 0; step < 8; step++) {
            int i = (step * 3 + round) % 8; /* 3 is coprime with 8: each key once */
            CHECK(strmap_remove(&m, keys[i]) == keys[i]);
            gone[i] = true;
            for (int j = 0; j < 8; j++) CHECK(strmap_get(&m, keys[j]) == (gone[j] ? NULL : keys[j]));
        }
        CHECK(strmap_len(&m) == 0);
        for (int i = 0; i < 8; i++) free(keys[i]);
        strmap_free(&m);
    }
}
