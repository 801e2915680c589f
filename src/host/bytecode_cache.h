/* bytecode_cache.h — compiled ES modules kept under <state dir>/cache/bytecode, by content hash,
 * authenticated with an HMAC whose key only the host reads (docs/captured-surface.md, "Bytecode
 * cache"). Trusted side: the engine never opens these files; the host hands it an entry only after
 * checking it, and takes entries only from an engine in its own process.
 *
 * An entry file is: magic "CHIBC001" (8) | entry id (32, raw SHA-256) | payload length (8, little
 * endian) | payload | HMAC-SHA256(key, everything before it) (32). The id is the SHA-256 of the
 * cache format, the build id, the module's key and its source, so a changed file, another module
 * name or another chidori build never matches. */
#ifndef CHIDORI_BYTECODE_CACHE_H
#define CHIDORI_BYTECODE_CACHE_H

#include <stdbool.h>
#include <stddef.h>

#define BC_CACHE_MAX_PAYLOAD ((size_t)32 << 20) /* larger entries are neither written nor read */
#define BC_CACHE_OVERHEAD (8 + 32 + 8 + 32)

typedef struct bc_cache bc_cache;

/* Opens (creating it, and the key, when missing) <state_dir>/cache/bytecode. NULL when the folder or
 * the key cannot be made or read: the run goes on without a cache. */
bc_cache *bc_cache_open(const char *state_dir);
void bc_cache_close(bc_cache *c);

/* The entry id (64 hex digits + NUL) of a module: its key and source, for this build. 0, or -1
 * when libcrypto cannot be loaded (no cache then). */
int bc_cache_id(const char *key, const char *source, size_t len, char out[65]);

/* The payload of the entry `id`, checked (size, magic, id, HMAC), malloc'd; NULL when there is
 * none or it does not check (a bad entry is removed, so it is rebuilt). */
unsigned char *bc_cache_get(bc_cache *c, const char *id, size_t *len);

/* Stores payload as entry `id` (atomically: a temporary file renamed). Errors are ignored: the
 * cache is an optimisation. */
void bc_cache_put(bc_cache *c, const char *id, const unsigned char *payload, size_t len);

/* The check bc_cache_get applies to a file's bytes (exposed for the fuzz target and unit tests):
 * 0 with *payload and *plen pointing into data, or -1. key32: the HMAC key; id: 64 hex digits. */
int bc_entry_check(const unsigned char key32[32], const char *id, const unsigned char *data, size_t len,
                   const unsigned char **payload, size_t *plen);
/* Builds an entry (malloc'd, *len set): what bc_cache_put writes. */
unsigned char *bc_entry_build(const unsigned char key32[32], const char *id, const unsigned char *payload, size_t plen,
                              size_t *len);

#endif
