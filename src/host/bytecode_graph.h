/* bytecode_graph.h — the payload of a graph image: the compiled package ES modules of one agent's
 * whole import graph in one bytecode cache entry (bytecode_cache.h frames and signs it;
 * docs/captured-surface.md, "Bytecode cache").
 *
 * The payload (little endian) is "CHIGRF01" | count (4) | count records of
 *   key length (4) | key | source length (8) | source FNV-1a 64 (8) | bytecode length (4) | bytecode.
 * A record is used only for a file whose key, length and FNV-1a 64 (the hash the snapshot
 * manifest lists, computed once per file per run) all match what the host just read.
 *
 * The parser trusts nothing: the frame's tag is checked first by the caller, but the parser alone
 * is bounds-checked on every field, caps the count, the key length and the bytecode length, and
 * refuses trailing bytes, NULs in a key and a key given twice (tests/fuzz/fuzz_bytecode_graph.c).
 */
#ifndef CHIDORI_BYTECODE_GRAPH_H
#define CHIDORI_BYTECODE_GRAPH_H

#include <stddef.h>
#include <stdint.h>

#include "util/buf.h"
#include "util/strmap.h"

#define BC_GRAPH_MAX_MODULES 16384
#define BC_GRAPH_MAX_KEY 1024

typedef struct {
    const char *key; /* NUL-terminated copy (in the graph's own allocation) */
    uint64_t source_len, source_hash;
    const unsigned char *bytecode; /* points into the parsed payload */
    size_t bytecode_len;
} bc_graph_module;

typedef struct {
    bc_graph_module *m;
    size_t n;
    char *keys; /* every key, NUL after each */
    strmap by_key; /* key -> its bc_graph_module */
} bc_graph;

/* Parses payload (len bytes, which must outlive the graph). 0, or -1 (g left empty, and to be
 * freed all the same) when it is not exactly a well-formed payload within the caps. */
int bc_graph_parse(const unsigned char *payload, size_t len, bc_graph *g);
void bc_graph_free(bc_graph *g);

/* Appends the payload's header for count records to out, then one record per call. */
void bc_graph_begin(buf *out, uint32_t count);
void bc_graph_add(buf *out, const char *key, uint64_t source_len, uint64_t source_hash, const unsigned char *bytecode,
                  size_t bytecode_len);

#endif
