/* auth.c — API keys, allowed origins and host names (see auth.h). Trusts nothing in a header:
 * a Host value is parsed with a length cap and refused when it is not a well-formed name. */
#define _GNU_SOURCE
#include "serve/auth.h"
#include "settings/settings.h"
#include "util/buf.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define KEY_MAX_BYTES 4096
#define HOST_NAME_MAX_BYTES 255

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

int auth_from_settings(auth_config *a, const settings *s, char **error)
{
    memset(a, 0, sizeof *a);
    const char *keys = settings_text(s, "CHIDORI_API_KEY");
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
    const char *origins = settings_text(s, "CHIDORI_CORS_ORIGINS");
    if (origins) {
        a->n_origins = split_list(origins, &a->origins);
        for (size_t i = 0; i < a->n_origins; i++)
            if (!strcmp(a->origins[i], "*")) a->any_origin = true;
        if (a->any_origin && !a->n_keys) {
            *error = xstrdup("CHIDORI_CORS_ORIGINS=* needs CHIDORI_API_KEY: without a key, every web page could "
                             "start and approve sessions; list the origins instead");
            auth_clear(a);
            return -1;
        }
    }
    return 0;
}

void auth_clear(auth_config *a)
{
    for (size_t i = 0; i < a->n_keys; i++) free(a->keys[i]);
    for (size_t i = 0; i < a->n_origins; i++) free(a->origins[i]);
    for (size_t i = 0; i < a->n_hosts; i++) free(a->hosts[i]);
    free(a->keys);
    free(a->origins);
    free(a->hosts);
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

/* ---------- host names ---------- */

/* The name of a Host value or a CHIDORI_ALLOWED_HOSTS entry — `name`, `name:port`, `[v6]`,
 * `[v6]:port`, or (an entry only, port_ok false) a bare IPv6 address — in lower case, without
 * brackets or one trailing dot, into out. false when it is not one. */
static bool parse_host(const char *text, bool port_ok, char out[HOST_NAME_MAX_BYTES + 1])
{
    const char *name = text, *end, *rest;
    bool v6 = true;
    if (*text == '[') {
        name = text + 1;
        if (!(end = strchr(name, ']'))) return false;
        rest = end + 1;
    } else if (!port_ok && strchr(text, ':') && strchr(text, ':') != strrchr(text, ':')) {
        end = rest = text + strlen(text); /* a bare IPv6 address */
    } else {
        v6 = false;
        end = strchr(text, ':');
        if (!end) end = text + strlen(text);
        rest = end;
    }
    if (*rest == ':') {
        if (!port_ok || strlen(rest + 1) > 5 || strspn(rest + 1, "0123456789") != strlen(rest + 1)) return false;
    } else if (*rest) {
        return false;
    }
    size_t n = (size_t)(end - name);
    if (n && name[n - 1] == '.') n--;
    if (n == 0 || n > HOST_NAME_MAX_BYTES) return false;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)name[i];
        bool ok = isalnum(c) || c == '.' || c == '-' || c == '_' || (v6 && (c == ':' || c == '%'));
        if (!ok) return false;
        out[i] = (char)tolower(c);
    }
    out[n] = '\0';
    if (v6) {
        struct in6_addr a6;
        char *pct = strchr(out, '%'); /* a zone id is not part of the address */
        if (pct) *pct = '\0';
        bool ok = inet_pton(AF_INET6, out, &a6) == 1;
        if (pct) *pct = '%';
        return ok; /* brackets hold an IPv6 address only */
    }
    return true;
}

static bool is_loopback_name(const char *name)
{
    if (!strcmp(name, "localhost")) return true;
    struct in_addr a4;
    struct in6_addr a6;
    if (inet_pton(AF_INET, name, &a4) == 1) return (ntohl(a4.s_addr) >> 24) == 127;
    if (inet_pton(AF_INET6, name, &a6) == 1)
        return IN6_IS_ADDR_LOOPBACK(&a6) || (IN6_IS_ADDR_V4MAPPED(&a6) && a6.s6_addr[12] == 127);
    return false;
}

static bool is_wildcard_address(const char *name)
{
    struct in_addr a4;
    struct in6_addr a6;
    if (inet_pton(AF_INET, name, &a4) == 1) return a4.s_addr == INADDR_ANY;
    if (inet_pton(AF_INET6, name, &a6) == 1) return IN6_IS_ADDR_UNSPECIFIED(&a6);
    return false;
}

static void add_host(auth_config *a, const char *name)
{
    for (size_t i = 0; i < a->n_hosts; i++)
        if (!strcmp(a->hosts[i], name)) return;
    a->hosts = xrealloc(a->hosts, (a->n_hosts + 1) * sizeof *a->hosts);
    a->hosts[a->n_hosts++] = xstrdup(name);
}

int auth_hosts_from_settings(auth_config *a, const settings *s, const char *bound_host, char **error)
{
    char name[HOST_NAME_MAX_BYTES + 1];
    if (bound_host && parse_host(bound_host, false, name) && !is_wildcard_address(name) && !is_loopback_name(name))
        add_host(a, name);
    const char *env = settings_text(s, "CHIDORI_ALLOWED_HOSTS");
    if (!env) return 0;
    char **items = NULL;
    size_t n = split_list(env, &items);
    int rc = 0;
    if (n == 0) {
        *error = xstrdup("CHIDORI_ALLOWED_HOSTS is set but names no host (unset it, or give names such as "
                         "`myhost.lan,10.0.0.5`)");
        rc = -1;
    }
    for (size_t i = 0; i < n && rc == 0; i++) {
        if (!strcmp(items[i], "*")) {
            if (!auth_required(a)) {
                *error = xstrdup("CHIDORI_ALLOWED_HOSTS=* needs CHIDORI_API_KEY: without a key, any web page could "
                                 "reach the server through a name of its own (DNS rebinding); list the names instead");
                rc = -1;
            }
            a->any_host = true;
        } else if (parse_host(items[i], false, name)) {
            add_host(a, name);
        } else {
            *error = xasprintf("CHIDORI_ALLOWED_HOSTS: `%.300s` is not a host name or address (give names or "
                               "addresses without a scheme or port, comma-separated, e.g. `myhost.lan,10.0.0.5`)",
                               items[i]);
            rc = -1;
        }
    }
    for (size_t i = 0; i < n; i++) free(items[i]);
    free(items);
    return rc;
}

bool auth_host_allowed(const auth_config *a, const char *host)
{
    if (!host) return true;
    char name[HOST_NAME_MAX_BYTES + 1];
    if (!parse_host(host, true, name)) return false;
    if (a->any_host || is_loopback_name(name)) return true;
    for (size_t i = 0; i < a->n_hosts; i++)
        if (!strcmp(a->hosts[i], name)) return true;
    return false;
}

/* Origin is `http://` + the Host value: the page that sends the request was served by this server
 * under the name the request uses. */
static bool same_origin(const char *origin, const char *host)
{
    return host && !strncasecmp(origin, "http://", 7) && !strcasecmp(origin + 7, host);
}

const char *auth_origin_refusal(const auth_config *a, const char *origin, const char *sec_fetch_site,
                                const char *host)
{
    if (origin) {
        if (auth_origin_allowed(a, origin) || same_origin(origin, host)) return NULL;
        return "its Origin is not this server and not in CHIDORI_CORS_ORIGINS";
    }
    if (sec_fetch_site && (!strcasecmp(sec_fetch_site, "cross-site") || !strcasecmp(sec_fetch_site, "same-site")))
        return "it comes from a page of another site (Sec-Fetch-Site)";
    return NULL;
}

char *auth_hosts_describe(const auth_config *a)
{
    if (a->any_host) return xstrdup("any name (CHIDORI_ALLOWED_HOSTS=*; the API key guards every route)");
    buf b = {0};
    buf_puts(&b, "localhost, 127.x.y.z, [::1]");
    for (size_t i = 0; i < a->n_hosts; i++)
        buf_printf(&b, strchr(a->hosts[i], ':') ? ", [%s]" : ", %s", a->hosts[i]);
    buf_puts(&b, " (CHIDORI_ALLOWED_HOSTS adds names; other Host headers get a 421)");
    return b.data;
}
