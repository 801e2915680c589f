/* fuzz_bytecode_graph.c — the parser of a graph image's payload (host/bytecode_graph.c,
 * bc_graph_parse), which reads bytes from the state folder after the frame's tag checked out; the
 * input is a payload's bytes.
 *
 * Properties (abort on violation):
 *   - an accepted payload is canonical: writing its records again gives the input byte for byte,
 *     every record's bytecode lies inside the input, within the caps, and its key is NUL-free,
 *     non-empty and found under itself in the graph's map;
 *   - a payload built from records cut out of the input parses back to the same records, and that
 *     payload cut short by one byte, or with one byte more, is refused. */
#include "host/bytecode_cache.h"
#include "host/bytecode_graph.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void check_accepted(const uint8_t *data, size_t size, const bc_graph *g)
{
    buf again = {0};
    bc_graph_begin(&again, (uint32_t)g->n);
    for (size_t i = 0; i < g->n; i++) {
        const bc_graph_module *m = &g->m[i];
        size_t kl = strlen(m->key);
        if (kl == 0 || kl > BC_GRAPH_MAX_KEY || strmap_get(&g->by_key, m->key) != m) abort();
        if (m->bytecode < data || m->bytecode + m->bytecode_len > data + size || m->bytecode_len == 0 ||
            m->bytecode_len > BC_CACHE_MAX_PAYLOAD)
            abort();
        bc_graph_add(&again, m->key, m->source_len, m->source_hash, m->bytecode, m->bytecode_len);
    }
    if (again.len != size || memcmp(again.data, data, size) != 0) abort();
    buf_free(&again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    bc_graph g;
    if (bc_graph_parse(data, size, &g) == 0) check_accepted(data, size, &g);
    bc_graph_free(&g);

    /* records cut from the input: key "k<i>" and bytecode the next bytes, up to 8 of them */
    buf built = {0};
    size_t n = size ? 1 + data[0] % 8 : 0, at = size ? 1 : 0;
    bc_graph_begin(&built, (uint32_t)n);
    for (size_t i = 0; i < n; i++) {
        char key[16] = {'k', (char)('0' + (int)i), 0};
        size_t bl = at < size ? 1 + data[at] % 64 : 1;
        const unsigned char *bc = at + bl <= size ? data + at : (const unsigned char *)"x";
        if (at + bl > size) bl = 1;
        bc_graph_add(&built, key, i * 7, (uint64_t)i * 0x9e3779b97f4a7c15ull, bc, bl);
        at += bl;
    }
    if (bc_graph_parse((const unsigned char *)built.data, built.len, &g) != 0 || g.n != n) abort();
    for (size_t i = 0; i < n; i++)
        if (g.m[i].source_len != i * 7 || g.m[i].source_hash != (uint64_t)i * 0x9e3779b97f4a7c15ull) abort();
    check_accepted((const uint8_t *)built.data, built.len, &g);
    bc_graph_free(&g);
    if (bc_graph_parse((const unsigned char *)built.data, built.len - 1, &g) == 0) abort();
    bc_graph_free(&g);
    buf_append(&built, "", 1);
    if (bc_graph_parse((const unsigned char *)built.data, built.len, &g) == 0) abort();
    bc_graph_free(&g);
    buf_free(&built);
    return 0;
}
