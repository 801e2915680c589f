/* test_strmap.c — the string-keyed hash map (src/util/strmap.c): its hash against the published
 * SipHash-2-4 vectors, and insert / replace / remove / walk against a plain array model, through
 * growth, shrinking and the backward shift of removals (with a degenerate key that makes every
 * entry collide, so runs wrap around the table). */
#define _GNU_SOURCE
#include "unit.h"
#include "util/buf.h"
#include "util/strmap.h"

#include <stdlib.h>

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
