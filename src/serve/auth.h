/* auth.h — who may call the server, and from which web origins.
 *
 * API keys: CHIDORI_API_KEY holds one key or a comma-separated list. When it is set, every route
 * but GET /health needs `Authorization: Bearer <key>`; keys are compared in constant time (the
 * time taken does not depend on how much of a guess was right). Without a key the server must
 * listen on a loopback address only (serve.c refuses anything else at start).
 *
 * CORS: off unless CHIDORI_CORS_ORIGINS lists the exact origins a browser may call from
 * (comma-separated, e.g. `https://app.example.com,http://localhost:5173`; `*` allows any).
 */
#ifndef CHIDORI_SERVE_AUTH_H
#define CHIDORI_SERVE_AUTH_H

#include <stdbool.h>
#include <stddef.h>

typedef struct auth_config {
    char **keys;
    size_t n_keys;
    char **origins;
    size_t n_origins;
    bool any_origin;
} auth_config;

/* From CHIDORI_API_KEY and CHIDORI_CORS_ORIGINS. -1 with *error for a set but unusable value. */
int auth_from_env(auth_config *a, char **error);
void auth_clear(auth_config *a);

bool auth_required(const auth_config *a);
/* The Authorization header value carries one of the keys. */
bool auth_check(const auth_config *a, const char *authorization);
/* CORS is on and origin may call. */
bool auth_origin_allowed(const auth_config *a, const char *origin);
bool auth_cors_enabled(const auth_config *a);

#endif
