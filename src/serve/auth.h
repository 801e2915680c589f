/* auth.h — who may call the server, and from which web origins.
 *
 * API keys: CHIDORI_API_KEY holds one key or a comma-separated list. When it is set, every route
 * but GET /health needs `Authorization: Bearer <key>`; keys are compared in constant time (the
 * time taken does not depend on how much of a guess was right). Without a key the server must
 * listen on a loopback address only (serve.c refuses anything else at start).
 *
 * CORS: off unless CHIDORI_CORS_ORIGINS lists the exact origins a browser may call from
 * (comma-separated, e.g. `https://app.example.com,http://localhost:5173`; `*` allows any, and is
 * accepted only with an API key).
 *
 * Host names (against DNS rebinding: a page of evil.example whose name is made to resolve to
 * 127.0.0.1 reaches the server with `Host: evil.example`): a request is answered only when its
 * Host header names the server — a loopback name (`localhost`, any 127.x.y.z, `[::1]`), the
 * address given to --host when it is not a wildcard, or a name of CHIDORI_ALLOWED_HOSTS
 * (comma-separated; `*` allows any, accepted only with an API key). The port is not compared.
 *
 * Origins of state-changing requests (against cross-site request forgery): a POST, PUT, PATCH
 * or DELETE whose Origin is neither the server's own (`http://` + its Host) nor a CORS origin,
 * or that has no Origin but `Sec-Fetch-Site: cross-site` / `same-site`, is refused, key or not.
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
    char **hosts; /* besides the loopback names; lower case, IPv6 without brackets */
    size_t n_hosts;
    bool any_host;
} auth_config;

/* From the settings CHIDORI_API_KEY and CHIDORI_CORS_ORIGINS (settings.h; NULL: unset). -1 with
 * *error for a set but unusable value. */
struct settings;
int auth_from_settings(auth_config *a, const struct settings *s, char **error);
/* The host names to answer to, from CHIDORI_ALLOWED_HOSTS and the --host value bound_host (added
 * unless it is a wildcard address). Call after auth_from_settings. -1 with *error for a bad entry,
 * or `*` without an API key. */
int auth_hosts_from_settings(auth_config *a, const struct settings *s, const char *bound_host, char **error);
void auth_clear(auth_config *a);

bool auth_required(const auth_config *a);
/* The Authorization header value carries one of the keys. */
bool auth_check(const auth_config *a, const char *authorization);
/* CORS is on and origin may call. */
bool auth_origin_allowed(const auth_config *a, const char *origin);
bool auth_cors_enabled(const auth_config *a);
/* The names it answers to, for the start-up banner (malloc'd). */
char *auth_hosts_describe(const auth_config *a);
/* The Host header value (NULL: absent, as HTTP/1.0 allows; no browser omits it) names this
 * server. */
bool auth_host_allowed(const auth_config *a, const char *host);
/* A state-changing request may proceed: NULL, or *why (static text) saying why not. */
const char *auth_origin_refusal(const auth_config *a, const char *origin, const char *sec_fetch_site,
                                const char *host);

#endif
