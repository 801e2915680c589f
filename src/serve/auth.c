/* auth.c — API keys and allowed origins (see auth.h). Trusts nothing in a header. */
#define _GNU_SOURCE
#include "serve/auth.h"
#include "util/buf.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define KEY_MAX_BYTES 4096

/* Split a comma-separated list into trimmed, non-empty items. */
static size_t split_list(const char *text, char ***out)
{
    size_t n = 0;
    char **items = NULL;
    const char *p = text;
    while (*p) {
        const char *end = strchr(p, ',');
        if (!end) end = p + strlen(p);
        const char *a = p, *b = end;
        while (a < b && (*a == ' ' || *a == '\t')) a++;
        while (b > a && (b[-1] == ' ' || b[-1] == '\t')) b--;
        if (b > a) {
            items = xrealloc(items, (n + 1) * sizeof *items);
            items[n++] = xstrndup(a, (size_t)(b - a));
        }
        p = *end ? end + 1 : end;
    }
    *out = items;
    return n;
}

int auth_from_env(auth_config *a, char **error)
{
    memset(a, 0, sizeof *a);
    const char *keys = getenv("CHIDORI_API_KEY");
    if (keys) {
        a->n_keys = split_list(keys, &a->keys);
        if (a->n_keys == 0) {
            *error = xstrdup("CHIDORI_API_KEY is set but holds no key (unset it, or give one)");
            return -1;
        }
        for (size_t i = 0; i < a->n_keys; i++)
            if (strlen(a->keys[i]) > KEY_MAX_BYTES) {
                *error = xasprintf("CHIDORI_API_KEY: a key is longer than %d bytes", KEY_MAX_BYTES);
                auth_clear(a);
                return -1;
            }
    }
    const char *origins = getenv("CHIDORI_CORS_ORIGINS");
    if (origins) {
        a->n_origins = split_list(origins, &a->origins);
        for (size_t i = 0; i < a->n_origins; i++)
            if (!strcmp(a->origins[i], "*")) a->any_origin = true;
    }
    return 0;
}

void auth_clear(auth_config *a)
{
    for (size_t i = 0; i < a->n_keys; i++) free(a->keys[i]);
    for (size_t i = 0; i < a->n_origins; i++) free(a->origins[i]);
    free(a->keys);
    free(a->origins);
    memset(a, 0, sizeof *a);
}

bool auth_required(const auth_config *a) { return a->n_keys > 0; }

/* Equal, in time that depends only on the lengths of the key and the guess's bound. */
static bool same_secret(const char *key, const char *guess, size_t guess_len)
{
    size_t key_len = strlen(key);
    uint8_t diff = key_len != guess_len;
    for (size_t i = 0; i < key_len; i++) {
        uint8_t g = i < guess_len ? (uint8_t)guess[i] : 0;
        diff |= (uint8_t)key[i] ^ g;
    }
    return diff == 0;
}

bool auth_check(const auth_config *a, const char *authorization)
{
    if (!a->n_keys) return true;
    if (!authorization || strncasecmp(authorization, "Bearer ", 7) != 0) return false;
    const char *guess = authorization + 7;
    while (*guess == ' ') guess++;
    size_t len = strlen(guess);
    while (len && (guess[len - 1] == ' ' || guess[len - 1] == '\t')) len--;
    if (len > KEY_MAX_BYTES) return false;
    bool ok = false;
    for (size_t i = 0; i < a->n_keys; i++) ok |= same_secret(a->keys[i], guess, len); /* no early exit */
    return ok;
}

bool auth_cors_enabled(const auth_config *a) { return a->n_origins > 0; }

bool auth_origin_allowed(const auth_config *a, const char *origin)
{
    if (!origin || !a->n_origins) return false;
    if (a->any_origin) return true;
    for (size_t i = 0; i < a->n_origins; i++)
        if (!strcmp(a->origins[i], origin)) return true;
    return false;
}
