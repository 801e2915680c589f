/* bytecode_cache.h — compiled ES modules kept under <state dir>/cache/bytecode, authenticated with a
 * MAC whose key only the host reads (docs/captured-surface.md, "Bytecode cache"): the signed frame
 * of an entry. The loader keeps one entry per agent, a graph image whose payload
 * (bytecode_graph.h) holds every cached module of its import graph by content hash. Trusted side:
 * the engine never opens these files; the host hands it an entry only after checking it, and takes
 * entries only from an engine in its own process.
 *
 * An entry file is: magic "CHIBC003" (8) | entry id (16) | payload length (8, little endian) |
 * payload | tag (16): the tag is a MAC of everything before it, the id one of the image format, the
 * build id and the agent's entry key (so another agent or another chidori build never matches):
 * SipHash-2-4-128, the id under the first half of the folder's 32-byte key and the tag under the
 * second. */
#ifndef CHIDORI_BYTECODE_CACHE_H
#define CHIDORI_BYTECODE_CACHE_H

#include <stdbool.h>
#include <stddef.h>

#define BC_CACHE_MAX_PAYLOAD ((size_t)32 << 20) /* larger entries are neither written nor read */
/* smaller sources (a line or two: re-exports) are not cached: they parse faster than an entry is
 * found and read; every larger package ES module is (bench/npm-import) */
#define BC_CACHE_MIN_SOURCE ((size_t)128)
#define BC_ID_BYTES 16
#define BC_ID_HEX (2 * BC_ID_BYTES)
#define BC_TAG_BYTES 16
#define BC_HEADER_BYTES (8 + BC_ID_BYTES + 8)
#define BC_CACHE_OVERHEAD (BC_HEADER_BYTES + BC_TAG_BYTES)

typedef struct bc_cache bc_cache;

/* Opens (creating it, and the key, when missing) <state_dir>/cache/bytecode. NULL when the folder or
 * the key cannot be made or read: the run goes on without a cache. */
bc_cache *bc_cache_open(const char *state_dir);
void bc_cache_close(bc_cache *c);

/* The entry id of the graph image of the agent whose entry file is entry_key (bytecode_graph.h):
 * one entry holding the compiled package modules of that agent's whole import graph. Always 0. */
int bc_cache_graph_id(const bc_cache *c, const char *entry_key, char out[BC_ID_HEX + 1]);

/* The entry `id`, checked (size, magic, id, tag): the file's bytes (malloc'd, the caller frees them)
 * with *payload and *len set to the payload inside them; NULL when there is none or it does not
 * check (a bad entry is removed, so it is rebuilt). */
unsigned char *bc_cache_get(bc_cache *c, const char *id, const unsigned char **payload, size_t *len);

/* Stores payload as entry `id` (atomically: a temporary file renamed). Errors are ignored: the
 * cache is an optimisation. */
void bc_cache_put(bc_cache *c, const char *id, const unsigned char *payload, size_t len);

/* The check bc_cache_get applies to a file's bytes (exposed for the fuzz target and unit tests):
 * 0 with *payload and *plen pointing into data, or -1. key32: the cache's key; id: BC_ID_HEX hex digits. */
int bc_entry_check(const unsigned char key32[32], const char *id, const unsigned char *data, size_t len,
                   const unsigned char **payload, size_t *plen);
/* Builds an entry (malloc'd, *len set): what bc_cache_put writes. */
unsigned char *bc_entry_build(const unsigned char key32[32], const char *id, const unsigned char *payload, size_t plen,
                              size_t *len);

#endif
