/* llm_cache.h — the local prompt cache (CHIDORI_PROMPT_CACHE_DIR, the original chidori's setting):
 * a live prompt whose exact request was answered before is answered from a file instead of the
 * provider.
 *
 * Owns: the cache key of a request, and the cache folder's files (one `<key>.json` per answered
 * request, holding the neutral response of llm.h), written atomically under a name of their own.
 * Trusts: the folder is the operator's (a setting). Not what is in it: an entry is read with a size
 * cap, parsed with limits and checked to have the response's shape; anything else is a miss, and
 * the cache never fails a call (a write that cannot be made is skipped).
 *
 * Bounds: the folder holds at most CHIDORI_PROMPT_CACHE_MAX_MB of disk (whole blocks; measured at
 * the first store of the process, again if the folder was deleted, and after an eviction): a store
 * that does not fit first removes the entries used least recently (a write or a hit sets an entry's
 * mtime), down to nine tenths of the cap, and only files named as entries are removed; an entry is
 * at most the response cap. Only answers the model finished normally are
 * kept (not an error or a filtered reply a provider sent with a 2xx, nor an empty one).
 *
 * Where it sits: llm.c asks it after the provider and the model are chosen and before the request
 * goes out, so a replay (answered from the run's log before anything is performed) never reads it,
 * and a hit is recorded as any answer is: a run's record is the same whether or not the provider
 * was paid.
 */
#ifndef CHIDORI_LLM_CACHE_H
#define CHIDORI_LLM_CACHE_H

#include "util/json.h"

#include <stddef.h>
#include <stdint.h>

/* The key (lowercase hex SHA-256, 64 characters and a NUL) of the request body (len bytes) as it is
 * sent to provider at endpoint, before a stream is asked for: the model and every part the model
 * sees, in the order it sees them. */
void llm_cache_key(const char *provider, const char *endpoint, const char *body, size_t len, char key[65]);

/* The response stored under key in dir, made again from its checked fields, or NULL (no entry, or
 * one that is unreadable, over max_bytes, not JSON, or not a response). */
json_t *llm_cache_lookup(const char *dir, const char *key, size_t max_bytes);

/* An entry's bytes as a response, or NULL (over max_bytes, not JSON, or not a response). */
json_t *llm_cache_entry(const char *text, size_t len, size_t max_bytes);

/* Store response under key in dir (made, with its parents, when missing), unless the folder holds
 * max_total bytes already or the entry would pass max_bytes. Silent: the cache is best effort. */
void llm_cache_store(const char *dir, const char *key, const json_t *response, size_t max_bytes, uint64_t max_total);

/* Tests: forget the folder size this process measured. */
void llm_cache_reset(void);

#endif
