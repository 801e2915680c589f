/* strmap.h — a hash map from NUL-terminated strings to pointers (open addressing, linear probing).
 *
 * The map does not copy or own its keys or values: a key must stay valid and unchanged while its
 * entry is in the map (the usual case: the key is a field of the value). Keys are hashed with
 * SipHash-1-3 under a random key chosen when the map is made, so ids chosen by a client cannot be
 * picked to collide. The table grows at half full and shrinks when it is mostly empty, so its
 * size follows what it holds now, not the most it ever held. Not thread-safe: the owner locks.
 */
#ifndef CHIDORI_STRMAP_H
#define CHIDORI_STRMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct strmap_slot {
    const char *key; /* NULL: empty */
    void *value;
    uint64_t hash;
} strmap_slot;

typedef struct strmap {
    strmap_slot *slots;
    size_t cap, len; /* cap: 0 or a power of two */
    uint64_t k0, k1; /* the hash key */
} strmap;

void strmap_init(strmap *m);
void strmap_free(strmap *m); /* the table only: not the keys, not the values */

void *strmap_get(const strmap *m, const char *key);
/* Insert or replace; returns the value it replaced, or NULL. */
void *strmap_put(strmap *m, const char *key, void *value);
/* Remove; returns the value it had, or NULL. */
void *strmap_remove(strmap *m, const char *key);
size_t strmap_len(const strmap *m);

/* Every entry, in no particular order: start with *pos = 0; true with the next entry. The map
 * must not change during the walk. */
bool strmap_next(const strmap *m, size_t *pos, const char **key, void **value);

/* SipHash-c-d of n bytes under (k0, k1) (the map uses c = 1, d = 3); exposed for the unit test,
 * which checks it against the published SipHash-2-4 vectors. */
uint64_t strmap_siphash(uint64_t k0, uint64_t k1, const void *data, size_t n, int c_rounds, int d_rounds);
/* SipHash-2-4-128: the 128-bit output mode of the same PRF (out[0] the first 8 bytes, little endian). */
void strmap_siphash128(uint64_t k0, uint64_t k1, const void *data, size_t n, uint64_t out[2]);

#endif
