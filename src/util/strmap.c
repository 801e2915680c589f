/* strmap.c — string-keyed hash map (see strmap.h).
 *
 * Linear probing with the hash kept in each slot (a probe compares hashes before strings, and a
 * resize does not hash again); removal shifts the following entries of the run back, so there are
 * no tombstones and a lookup stops at the first empty slot. Trusts its caller for the lifetime of
 * keys; trusts nothing about the keys' contents (any bytes up to the NUL).
 */
#include "util/strmap.h"
#include "util/buf.h"
#include "util/random.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define MIN_CAP 16

static uint64_t rotl(uint64_t x, int b) { return (x << b) | (x >> (64 - b)); }

#define SIPROUND                                                                                                   \
    do {                                                                                                           \
        v0 += v1, v1 = rotl(v1, 13), v1 ^= v0, v0 = rotl(v0, 32);                                                  \
        v2 += v3, v3 = rotl(v3, 16), v3 ^= v2;                                                                     \
        v0 += v3, v3 = rotl(v3, 21), v3 ^= v0;                                                                     \
        v2 += v1, v1 = rotl(v1, 17), v1 ^= v2, v2 = rotl(v2, 32);                                                  \
    } while (0)

static uint64_t load_le64(const unsigned char *p)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t v; /* one load (the byte loop below compiles to eight) */
    memcpy(&v, p, 8);
    return v;
#else
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = (v << 8) | p[i];
    return v;
#endif
}

uint64_t strmap_siphash(uint64_t k0, uint64_t k1, const void *data, size_t n, int c_rounds, int d_rounds)
{
    const unsigned char *p = data;
    uint64_t v0 = k0 ^ 0x736f6d6570736575ULL, v1 = k1 ^ 0x646f72616e646f6dULL;
    uint64_t v2 = k0 ^ 0x6c7967656e657261ULL, v3 = k1 ^ 0x7465646279746573ULL;
    size_t whole = n - n % 8;
    for (size_t i = 0; i < whole; i += 8) {
        uint64_t m = load_le64(p + i);
        v3 ^= m;
        for (int r = 0; r < c_rounds; r++) SIPROUND;
        v0 ^= m;
    }
    uint64_t last = (uint64_t)(n & 0xff) << 56;
    for (size_t i = 0; i < n % 8; i++) last |= (uint64_t)p[whole + i] << (8 * i);
    v3 ^= last;
    for (int r = 0; r < c_rounds; r++) SIPROUND;
    v0 ^= last;
    v2 ^= 0xff;
    for (int r = 0; r < d_rounds; r++) SIPROUND;
    return v0 ^ v1 ^ v2 ^ v3;
}

/* SipHash-2-4 with its 128-bit output (the reference's outlen 16 mode: 0xee into v1 at the start
 * and v2 at the end, then a second finalization after 0xdd into v1): one pass over data for 128
 * bits, where two 64-bit hashes under two keys take two. */
void strmap_siphash128(uint64_t k0, uint64_t k1, const void *data, size_t n, uint64_t out[2])
{
    const unsigned char *p = data;
    uint64_t v0 = k0 ^ 0x736f6d6570736575ULL, v1 = k1 ^ 0x646f72616e646f6dULL ^ 0xee;
    uint64_t v2 = k0 ^ 0x6c7967656e657261ULL, v3 = k1 ^ 0x7465646279746573ULL;
    size_t whole = n - n % 8;
    for (size_t i = 0; i < whole; i += 8) {
        uint64_t m = load_le64(p + i);
        v3 ^= m;
        SIPROUND;
        SIPROUND;
        v0 ^= m;
    }
    uint64_t last = (uint64_t)(n & 0xff) << 56;
    for (size_t i = 0; i < n % 8; i++) last |= (uint64_t)p[whole + i] << (8 * i);
    v3 ^= last;
    SIPROUND;
    SIPROUND;
    v0 ^= last;
    v2 ^= 0xee;
    for (int r = 0; r < 4; r++) SIPROUND;
    out[0] = v0 ^ v1 ^ v2 ^ v3;
    v1 ^= 0xdd;
    for (int r = 0; r < 4; r++) SIPROUND;
    out[1] = v0 ^ v1 ^ v2 ^ v3;
}

static uint64_t hash_of(const strmap *m, const char *key) { return strmap_siphash(m->k0, m->k1, key, strlen(key), 1, 3); }

/* One secret key for the process, drawn once: a map's key only has to be unknown to whoever
 * chooses its keys (hash flooding), and drawing two words per map was a getrandom call each, a
 * dozen at every run's start. */
static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static uint64_t process_key[2];
static void draw_key(void) { random_bytes(process_key, sizeof process_key); }

void strmap_init(strmap *m)
{
    memset(m, 0, sizeof *m);
    pthread_once(&key_once, draw_key);
    m->k0 = process_key[0];
    m->k1 = process_key[1];
}

void strmap_free(strmap *m)
{
    free(m->slots);
    m->slots = NULL;
    m->cap = m->len = 0;
}

size_t strmap_len(const strmap *m) { return m->len; }

/* The slot of key, or of the empty slot where it would go. cap > 0. */
static size_t find_slot(const strmap *m, const char *key, uint64_t h)
{
    size_t mask = m->cap - 1;
    size_t i = (size_t)h & mask;
    while (m->slots[i].key && !(m->slots[i].hash == h && !strcmp(m->slots[i].key, key))) i = (i + 1) & mask;
    return i;
}

static void resize(strmap *m, size_t cap)
{
    strmap_slot *old = m->slots;
    size_t old_cap = m->cap;
    m->slots = xcalloc(cap, sizeof *m->slots);
    m->cap = cap;
    for (size_t i = 0; i < old_cap; i++) {
        if (!old[i].key) continue;
        size_t j = (size_t)old[i].hash & (cap - 1);
        while (m->slots[j].key) j = (j + 1) & (cap - 1);
        m->slots[j] = old[i];
    }
    free(old);
}

void *strmap_get(const strmap *m, const char *key)
{
    if (!m->cap) return NULL;
    size_t i = find_slot(m, key, hash_of(m, key));
    return m->slots[i].key ? m->slots[i].value : NULL;
}

void *strmap_put(strmap *m, const char *key, void *value)
{
    if ((m->len + 1) * 2 > m->cap) resize(m, m->cap ? m->cap * 2 : MIN_CAP);
    uint64_t h = hash_of(m, key);
    size_t i = find_slot(m, key, h);
    if (m->slots[i].key) {
        void *was = m->slots[i].value;
        m->slots[i].key = key;
        m->slots[i].value = value;
        return was;
    }
    m->slots[i] = (strmap_slot){key, value, h};
    m->len++;
    return NULL;
}

void *strmap_remove(strmap *m, const char *key)
{
    if (!m->cap) return NULL;
    size_t mask = m->cap - 1;
    size_t i = find_slot(m, key, hash_of(m, key));
    if (!m->slots[i].key) return NULL;
    void *was = m->slots[i].value;
    /* Shift back each later entry of the run that may sit in the hole: one whose home slot is not
     * cyclically within (hole, its position]. */
    size_t hole = i, j = i;
    for (;;) {
        j = (j + 1) & mask;
        if (!m->slots[j].key) break;
        size_t home = (size_t)m->slots[j].hash & mask;
        bool stays = hole <= j ? (hole < home && home <= j) : (hole < home || home <= j);
        if (stays) continue;
        m->slots[hole] = m->slots[j];
        hole = j;
    }
    m->slots[hole] = (strmap_slot){0};
    m->len--;
    if (m->cap > MIN_CAP && m->len * 8 < m->cap) resize(m, m->cap / 2);
    return was;
}

bool strmap_next(const strmap *m, size_t *pos, const char **key, void **value)
{
    for (; *pos < m->cap; (*pos)++) {
        if (!m->slots[*pos].key) continue;
        *key = m->slots[*pos].key;
        *value = m->slots[*pos].value;
        (*pos)++;
        return true;
    }
    return false;
}
