/* fuzz_bytecode_cache.c — the check every bytecode cache entry passes before the host hands its
 * payload to an engine (host/bytecode_cache.c, bc_entry_check): the input is an entry file's bytes.
 *
 * Properties (abort on violation):
 *   - no input is accepted under a key and id it was not signed with: the raw input is checked
 *     against a fixed key and the id it claims (bytes 8..24 as hex), and must be refused unless it
 *     is exactly what bc_entry_build makes for that key, id and payload;
 *   - an entry built from the input as payload checks out, with the payload back byte for byte and
 *     pointing inside the entry;
 *   - that entry with any one bit flipped, cut short by one byte, or checked under another id or
 *     another key is refused. */
#include "host/bytecode_cache.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const unsigned char KEY[32] = "fuzz-key-0123456789abcdefghijkl";
static const unsigned char OTHER[32] = "fuzz-key-0123456789abcdefghijkm";

static void hex_of(const unsigned char *raw, char out[BC_ID_HEX + 1])
{
    static const char hex[] = "0123456789abcdef";
    for (int i = 0; i < BC_ID_BYTES; i++) {
        out[2 * i] = hex[raw[i] >> 4];
        out[2 * i + 1] = hex[raw[i] & 15];
    }
    out[BC_ID_HEX] = 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char id[BC_ID_HEX + 1];
    const unsigned char *p;
    size_t plen;
    /* the raw input, under the id it names */
    if (size >= 8 + BC_ID_BYTES) {
        hex_of(data + 8, id);
        if (bc_entry_check(KEY, id, data, size, &p, &plen) == 0) {
            size_t n;
            unsigned char *again = bc_entry_build(KEY, id, p, plen, &n);
            if (!again || n != size || memcmp(again, data, size) != 0) abort(); /* accepted but not ours */
            free(again);
        }
    }
    /* a well-formed entry around the input */
    unsigned char raw[BC_ID_BYTES];
    for (int i = 0; i < BC_ID_BYTES; i++) raw[i] = (unsigned char)(size > (size_t)i ? data[i] : i);
    hex_of(raw, id);
    size_t n;
    unsigned char *e = bc_entry_build(KEY, id, data, size, &n);
    if (!e) abort();
    if (bc_entry_check(KEY, id, e, n, &p, &plen) != 0 || plen != size || p < e || p + plen > e + n ||
        memcmp(p, data, size) != 0)
        abort();
    if (bc_entry_check(OTHER, id, e, n, &p, &plen) == 0) abort();
    if (bc_entry_check(KEY, id, e, n - 1, &p, &plen) == 0) abort();
    char other_id[BC_ID_HEX + 1];
    memcpy(other_id, id, sizeof other_id);
    other_id[0] = other_id[0] == 'a' ? 'b' : 'a';
    if (bc_entry_check(KEY, other_id, e, n, &p, &plen) == 0) abort();
    size_t bit = size ? (size_t)data[0] * 131 + size : 7;
    bit %= n * 8;
    e[bit / 8] ^= (unsigned char)(1u << (bit % 8));
    if (bc_entry_check(KEY, id, e, n, &p, &plen) == 0) abort();
    free(e);
    return 0;
}
