/* effects/http.c — the `http` effect: one HTTP(S) request for fetch and node:http(s), made by
 * the parent with libcurl behind the SSRF guard (ssrf.h).
 *
 * args   {method, url, headers: [[name, value], …], body: base64 | null,
 *         redirect: "follow" | "manual" | "error", timeout_ms?}
 * result {status, status_text, url, redirected, headers: [[name, value], …], body: base64}
 *
 * Trusts nothing in the args (guest code wrote them): every field is type- and size-checked, header
 * names must be tokens and values free of CR, LF and NUL, headers that frame the message (Host,
 * Content-Length, Transfer-Encoding, Connection, …) are chidori's to set. Only http and https,
 * never a proxy, no cookies kept, no netrc, no unix sockets.
 *
 * The guard: every socket libcurl opens goes through on_open_socket, which sees the address
 * actually being connected (after libcurl's own resolution and its parsing of numeric hosts) and
 * refuses non-public ones unless CHIDORI_HTTP_ALLOW_HOSTS names the hop's host or covers the
 * address. Redirects are not followed by libcurl: each hop is a fresh handle (no connection is
 * reused across hops) whose host is checked again. Caps: response body (CHIDORI_HTTP_MAX_BYTES),
 * request body, redirects, one timeout for all hops together, response header bytes.
 *
 * One URL: http_prepare_args (the op's prepare step, run by host_call before the replay lookup)
 * puts args.url in its normalized form (urlnorm.h), so the gate checks, libcurl sends
 * (CURLOPT_PATH_AS_IS: no second normalization) and the log records the same string; the effect
 * normalizes again (idempotent) and so does every redirect target before its hop is gated.
 *
 * Recorded (OP_RECORDED): a replay answers from the call log and this file is not reached.
 * Provider calls (llm*.c) do not come through here.
 */
#define _GNU_SOURCE
#define CURL_DISABLE_TYPECHECK
#include "host/host_internal.h"
#include "host/ops.h"
#include "host/ssrf.h"
#include "host/llm.h"
#include "host/policy.h"
#include "host/urlnorm.h"
#include "util/base64.h"
#include "util/curl_lazy.h"
#include "util/buf.h"
#include "util/clock.h"
#include "settings/settings.h"

#include <stdint.h>
#include <curl/curl.h>
#include <ctype.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

extern const effect_module http_module; /* defined at the end of this file */

#define HTTP_METHOD_MAX 32
#define HTTP_MAX_REQUEST_HEADERS 256
#define HTTP_MAX_REQUEST_HEADER_BYTES (256 * 1024)
#define HTTP_MAX_RESPONSE_HEADERS 1000
#define HTTP_MAX_RESPONSE_HEADER_BYTES (256 * 1024)

struct http_settings {
    size_t max_bytes;
    size_t max_request_bytes;
    long max_redirects;
    long timeout_ms;
    ssrf_allow *allow;
};

/* ---- settings ---- */

http_settings *http_settings_new(const settings *set, char **error)
{
    char *why = NULL;
    ssrf_allow *allow = ssrf_allow_parse(settings_nonempty(set, "CHIDORI_HTTP_ALLOW_HOSTS"), &why);
    if (!allow) {
        *error = xasprintf("CHIDORI_HTTP_ALLOW_HOSTS: %s", why);
        free(why);
        return NULL;
    }
    http_settings *s = xcalloc(1, sizeof *s);
    s->max_bytes = (size_t)settings_u64(set, "CHIDORI_HTTP_MAX_BYTES");
    s->max_request_bytes = (size_t)settings_u64(set, "CHIDORI_HTTP_MAX_REQUEST_BYTES");
    s->max_redirects = (long)settings_u64(set, "CHIDORI_HTTP_MAX_REDIRECTS");
    s->timeout_ms = (long)settings_u64(set, "CHIDORI_HTTP_TIMEOUT_MS");
    s->allow = allow;
    return s;
}

void http_settings_free(http_settings *s)
{
    if (!s) return;
    ssrf_allow_free(s->allow);
    free(s);
}


/* ---- the request, checked ---- */

typedef struct header {
    char *name, *value;
} header;

typedef struct request {
    char *method;
    char *url;
    header *headers;
    size_t n_headers;
    unsigned char *body;
    size_t body_len;
    bool has_body;
    enum { REDIRECT_FOLLOW, REDIRECT_MANUAL, REDIRECT_ERROR } redirect;
    long timeout_ms;
} request;

static void request_clear(request *r)
{
    free(r->method);
    free(r->url);
    for (size_t i = 0; i < r->n_headers; i++) free(r->headers[i].name), free(r->headers[i].value);
    free(r->headers);
    free(r->body);
}

static bool is_tchar(unsigned char c)
{
    return isalnum(c) || (c && strchr("!#$%&'*+-.^_`|~", c));
}

static bool is_token(const char *s, size_t n)
{
    if (n == 0) return false;
    for (size_t i = 0; i < n; i++)
        if (!is_tchar((unsigned char)s[i])) return false;
    return true;
}

/* Headers chidori sets itself: they frame the message or pick the connection. */
static bool reserved_header(const char *name)
{
    static const char *const names[] = {"host", "content-length", "transfer-encoding", "connection", "keep-alive",
                                        "upgrade", "expect", "te", "trailer", "proxy-connection"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcasecmp(name, names[i])) return true;
    return !strncasecmp(name, "proxy-", 6);
}

/* The URL, shown in messages: at most 200 bytes. */
static char *shown_url(const char *url)
{
    size_t n = strlen(url);
    return n > 200 ? xasprintf("%.200s...", url) : xstrdup(url);
}

/* Parse url with libcurl's parser (the one that will be used to connect). Fills the lower-cased
 * scheme, the host as libcurl sees it, and the port. 0, or -1 with *error. */
static int parse_url(const char *url, char **scheme, char **hostname, long *port, char **error)
{
    *scheme = *hostname = NULL;
    CURLU *u = curl_url();
    if (!u) {
        *error = xasprintf("http: cannot parse URLs: %s", curl_easy_strerror(CURLE_FAILED_INIT));
        return -1;
    }
    char *s = NULL, *h = NULL, *p = NULL;
    int rc = -1;
    char *shown = shown_url(url);
    if (curl_url_set(u, CURLUPART_URL, url, CURLU_NON_SUPPORT_SCHEME) != CURLUE_OK ||
        curl_url_get(u, CURLUPART_SCHEME, &s, 0) != CURLUE_OK) {
        *error = xasprintf("http: `%s` is not a valid absolute URL", shown);
    } else if (strcasecmp(s, "http") != 0 && strcasecmp(s, "https") != 0) {
        *error = xasprintf("http: `%s`: only http: and https: URLs can be fetched", shown);
    } else if (curl_url_get(u, CURLUPART_HOST, &h, 0) != CURLUE_OK || !h || !*h) {
        *error = xasprintf("http: `%s` has no host", shown);
    } else if (curl_url_get(u, CURLUPART_PORT, &p, CURLU_DEFAULT_PORT) != CURLUE_OK || !p) {
        *error = xasprintf("http: `%s` has no usable port", shown);
    } else {
        *scheme = xstrdup(s);
        for (char *c = *scheme; *c; c++) *c = (char)tolower((unsigned char)*c);
        *hostname = xstrdup(h);
        *port = strtol(p, NULL, 10);
        rc = 0;
    }
    free(shown);
    curl_free(s);
    curl_free(h);
    curl_free(p);
    curl_url_cleanup(u);
    return rc;
}

/* The URL in its one normalized form (urlnorm.h), which libcurl must also be able to parse:
 * malloc'd, or NULL with *error. */
static char *normalized_url(const char *url, size_t len, char **error)
{
    char *why = NULL;
    char *norm = url_normalize(url, len, &why);
    if (!norm) {
        *error = xasprintf("http: %s", why);
        free(why);
        return NULL;
    }
    char *scheme, *host;
    long port;
    if (parse_url(norm, &scheme, &host, &port, error) != 0) {
        free(norm);
        return NULL;
    }
    free(scheme);
    free(host);
    return norm;
}

static json_t *http_prepare_args(const json_t *args, char **error)
{
    const json_t *u = json_object_get(args, "url");
    if (!json_is_string(u)) return NULL; /* the effect reports it */
    char *norm = normalized_url(u->u.string.bytes, u->u.string.len, error);
    if (!norm) return NULL;
    json_t *out = NULL;
    if (strlen(norm) != u->u.string.len || memcmp(norm, u->u.string.bytes, u->u.string.len) != 0) {
        out = json_copy(args);
        json_object_set(out, "url", json_string(norm));
    }
    free(norm);
    return out;
}

/* A header value from JSON (UTF-8) as the bytes it stands for: each character U+0000-U+00FF is
 * one byte, as browsers and Node send header values. NULL when a character is beyond U+00FF or
 * the text is not UTF-8. */
static char *to_latin1(const char *s, size_t n)
{
    char *out = xmalloc(n + 1);
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x80) {
            out[o++] = (char)c;
            i++;
        } else if ((c == 0xc2 || c == 0xc3) && i + 1 < n && ((unsigned char)s[i + 1] & 0xc0) == 0x80) {
            out[o++] = (char)(((c & 0x1f) << 6) | ((unsigned char)s[i + 1] & 0x3f));
            i += 2;
        } else {
            free(out);
            return NULL;
        }
    }
    out[o] = 0;
    return out;
}

static int read_request(const http_settings *cfg, const json_t *args, request *r, char **error)
{
    static const char *const known[] = {"method", "url", "headers", "body", "redirect", "timeout_ms"};
    for (size_t i = 0; i < args->u.object.len; i++) {
        const char *k = args->u.object.items[i].key;
        bool ok = false;
        for (size_t j = 0; j < sizeof known / sizeof known[0]; j++) ok |= !strcmp(k, known[j]);
        if (!ok) {
            *error = xasprintf("http: unknown argument `%.40s`", k);
            return -1;
        }
    }
    const json_t *m = json_object_get(args, "method");
    if (!json_is_string(m) || !is_token(m->u.string.bytes, m->u.string.len) || m->u.string.len > HTTP_METHOD_MAX) {
        *error = xstrdup("http: `method` must be an HTTP method name (a token of at most 32 characters)");
        return -1;
    }
    if (!strcasecmp(m->u.string.bytes, "CONNECT") || !strcasecmp(m->u.string.bytes, "TRACE") ||
        !strcasecmp(m->u.string.bytes, "TRACK")) {
        *error = xasprintf("http: the method `%s` is not allowed", m->u.string.bytes);
        return -1;
    }
    r->method = xstrdup(m->u.string.bytes);

    const json_t *u = json_object_get(args, "url");
    if (!json_is_string(u)) {
        *error = xstrdup("http: `url` must be a string");
        return -1;
    }
    r->url = normalized_url(u->u.string.bytes, u->u.string.len, error); /* already so after host_call */
    if (!r->url) return -1;

    const json_t *hs = json_object_get(args, "headers");
    if (hs && hs->type != JSON_NULL) {
        if (!json_is_array(hs)) {
            *error = xstrdup("http: `headers` must be an array of [name, value] pairs");
            return -1;
        }
        if (hs->u.array.len > HTTP_MAX_REQUEST_HEADERS) {
            *error = xasprintf("http: more than %d request headers", HTTP_MAX_REQUEST_HEADERS);
            return -1;
        }
        r->headers = xcalloc(hs->u.array.len + 1, sizeof *r->headers);
        size_t total = 0;
        for (size_t i = 0; i < hs->u.array.len; i++) {
            const json_t *pair = hs->u.array.items[i];
            const json_t *n = json_is_array(pair) && pair->u.array.len == 2 ? pair->u.array.items[0] : NULL;
            const json_t *v = n ? pair->u.array.items[1] : NULL;
            if (!json_is_string(n) || !json_is_string(v)) {
                *error = xasprintf("http: header %zu must be a [name, value] pair of strings", i);
                return -1;
            }
            if (!is_token(n->u.string.bytes, n->u.string.len) || n->u.string.len > 256) {
                *error = xasprintf("http: `%.60s` is not a valid header name", n->u.string.bytes);
                for (char *p = *error; *p; p++)
                    if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f) *p = '?';
                return -1;
            }
            for (size_t k = 0; k < v->u.string.len; k++) {
                char c = v->u.string.bytes[k];
                if (c == '\r' || c == '\n' || c == 0) {
                    *error = xasprintf("http: the value of header `%s` contains a CR, LF or NUL character",
                                       n->u.string.bytes);
                    return -1;
                }
            }
            if (reserved_header(n->u.string.bytes)) {
                *error = xasprintf("http: the header `%s` is set by chidori and cannot be given", n->u.string.bytes);
                return -1;
            }
            total += n->u.string.len + v->u.string.len + 4;
            if (total > HTTP_MAX_REQUEST_HEADER_BYTES) {
                *error = xasprintf("http: the request headers are larger than %d bytes", HTTP_MAX_REQUEST_HEADER_BYTES);
                return -1;
            }
            char *latin = to_latin1(v->u.string.bytes, v->u.string.len);
            if (!latin) {
                *error = xasprintf("http: the value of header `%s` has a character beyond U+00FF (header values are "
                                   "bytes; encode it, for example with encodeURIComponent)", n->u.string.bytes);
                return -1;
            }
            r->headers[r->n_headers].name = xstrdup(n->u.string.bytes);
            r->headers[r->n_headers].value = latin;
            r->n_headers++;
        }
    }

    const json_t *b = json_object_get(args, "body");
    if (b && b->type != JSON_NULL) {
        if (!json_is_string(b)) {
            *error = xstrdup("http: `body` must be a base64 string or null");
            return -1;
        }
        if (b->u.string.len / 4 * 3 > cfg->max_request_bytes + 2) {
            *error = xasprintf("http: the request body is larger than CHIDORI_HTTP_MAX_REQUEST_BYTES (%zu bytes)",
                               cfg->max_request_bytes);
            return -1;
        }
        r->body = base64_decode(b->u.string.bytes, b->u.string.len, SIZE_MAX, &r->body_len, NULL);
        if (!r->body) {
            *error = xstrdup("http: `body` is not valid base64");
            return -1;
        }
        if (r->body_len > cfg->max_request_bytes) {
            *error = xasprintf("http: the request body is larger than CHIDORI_HTTP_MAX_REQUEST_BYTES (%zu bytes)",
                               cfg->max_request_bytes);
            return -1;
        }
        r->has_body = true;
        if (!strcmp(r->method, "GET") || !strcmp(r->method, "HEAD")) {
            *error = xasprintf("http: a %s request cannot have a body", r->method);
            return -1;
        }
    }

    const json_t *rd = json_object_get(args, "redirect");
    const char *mode = rd && rd->type != JSON_NULL ? json_string_value(rd) : "follow";
    if (mode && !strcmp(mode, "follow")) r->redirect = REDIRECT_FOLLOW;
    else if (mode && !strcmp(mode, "manual")) r->redirect = REDIRECT_MANUAL;
    else if (mode && !strcmp(mode, "error")) r->redirect = REDIRECT_ERROR;
    else {
        *error = xstrdup("http: `redirect` must be \"follow\", \"manual\" or \"error\"");
        return -1;
    }

    r->timeout_ms = cfg->timeout_ms;
    const json_t *t = json_object_get(args, "timeout_ms");
    if (t && t->type != JSON_NULL) {
        double v = t->type == JSON_NUMBER ? t->u.number : -1;
        if (!(v >= 1 && v <= 86400000.0) || v != (double)(long)v) {
            *error = xstrdup("http: `timeout_ms` must be a whole number of milliseconds from 1 to 86400000");
            return -1;
        }
        if ((long)v < r->timeout_ms) r->timeout_ms = (long)v; /* may only lower the host's timeout */
    }
    return 0;
}

/* ---- one hop ---- */

typedef struct hop {
    const http_settings *cfg;
    const char *host; /* the hop's URL host as libcurl parsed it: the name the allowlist may hold */
    bool refused;
    char refused_addr[64];
    ssrf_class refused_class;
    ssrf_addr carried;
    json_t *headers; /* [[name, value], …] of the last response head */
    char *status_text;
    size_t header_bytes, n_headers;
    bool headers_over;
    buf body;
    size_t cap;
    bool over;
} hop;

static curl_socket_t on_open_socket(void *ud, curlsocktype purpose, struct curl_sockaddr *a)
{
    hop *h = ud;
    ssrf_addr x = {0};
    if (purpose == CURLSOCKTYPE_IPCXN && a->family == AF_INET && a->addrlen >= sizeof(struct sockaddr_in)) {
        x.family = 4;
        memcpy(x.bytes, &((const struct sockaddr_in *)&a->addr)->sin_addr, 4);
    } else if (purpose == CURLSOCKTYPE_IPCXN && a->family == AF_INET6 && a->addrlen >= sizeof(struct sockaddr_in6)) {
        x.family = 6;
        memcpy(x.bytes, &((const struct sockaddr_in6 *)&a->addr)->sin6_addr, 16);
    } else {
        if (!h->refused) {
            h->refused = true;
            snprintf(h->refused_addr, sizeof h->refused_addr, "a non-IP socket");
            h->refused_class = SSRF_UNSPECIFIED;
        }
        return CURL_SOCKET_BAD;
    }
    bool exempt;
    ssrf_class c = ssrf_decide(h->cfg->allow, h->host, &x, &exempt);
    if (c != SSRF_PUBLIC) {
        if (!h->refused) {
            h->refused = true;
            h->refused_class = c;
            ssrf_format_addr(&x, h->refused_addr, sizeof h->refused_addr);
            ssrf_classify(&x, &h->carried);
        }
        return CURL_SOCKET_BAD;
    }
    return socket(a->family, a->socktype | SOCK_CLOEXEC, a->protocol);
}

static size_t on_body(char *ptr, size_t size, size_t nmemb, void *ud)
{
    hop *h = ud;
    size_t n = size * nmemb;
    if (n > h->cap || h->body.len > h->cap - n) {
        h->over = true;
        return 0; /* != n: libcurl aborts the transfer with CURLE_WRITE_ERROR */
    }
    buf_append(&h->body, ptr, n);
    return n;
}

/* Header bytes are Latin-1 (as browsers and Node read them): each byte becomes one character. */
static json_t *latin1(const char *s, size_t n)
{
    buf b = {0};
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x80) {
            buf_putc(&b, (char)c);
        } else {
            buf_putc(&b, (char)(0xc0 | (c >> 6)));
            buf_putc(&b, (char)(0x80 | (c & 0x3f)));
        }
    }
    json_t *v = json_stringn(b.data ? b.data : "", b.len);
    buf_free(&b);
    return v;
}

static size_t on_header(char *ptr, size_t size, size_t nmemb, void *ud)
{
    hop *h = ud;
    size_t n = size * nmemb;
    h->header_bytes += n;
    if (h->header_bytes > HTTP_MAX_RESPONSE_HEADER_BYTES || h->n_headers >= HTTP_MAX_RESPONSE_HEADERS) {
        h->headers_over = true;
        return 0;
    }
    size_t len = n;
    while (len > 0 && (ptr[len - 1] == '\n' || ptr[len - 1] == '\r')) len--;
    if (len >= 5 && !memcmp(ptr, "HTTP/", 5)) { /* a new response head (after 1xx, or the first) */
        json_free(h->headers);
        h->headers = json_array();
        h->n_headers = 0;
        free(h->status_text);
        const char *sp = memchr(ptr, ' ', len);
        const char *sp2 = sp ? memchr(sp + 1, ' ', len - (size_t)(sp + 1 - ptr)) : NULL;
        h->status_text = sp2 ? xstrndup(sp2 + 1, len - (size_t)(sp2 + 1 - ptr)) : xstrdup("");
        return n;
    }
    if (len == 0 || !h->headers) return n;
    if ((ptr[0] == ' ' || ptr[0] == '\t') && h->headers->u.array.len > 0) { /* obsolete line folding */
        json_t *pair = h->headers->u.array.items[h->headers->u.array.len - 1];
        json_t *old = pair->u.array.items[1];
        size_t s = 0;
        while (s < len && (ptr[s] == ' ' || ptr[s] == '\t')) s++;
        buf joined = {0};
        buf_append(&joined, old->u.string.bytes, old->u.string.len);
        buf_putc(&joined, ' ');
        json_t *more = latin1(ptr + s, len - s);
        buf_append(&joined, more->u.string.bytes, more->u.string.len);
        json_free(more);
        json_free(old);
        pair->u.array.items[1] = json_stringn(joined.data, joined.len);
        buf_free(&joined);
        return n;
    }
    const char *colon = memchr(ptr, ':', len);
    if (!colon || colon == ptr) return n; /* not a header line: dropped */
    size_t nlen = (size_t)(colon - ptr);
    while (nlen > 0 && (ptr[nlen - 1] == ' ' || ptr[nlen - 1] == '\t')) nlen--;
    char *name = xstrndup(ptr, nlen);
    for (char *p = name; *p; p++) *p = (char)tolower((unsigned char)*p);
    const char *v = colon + 1, *end = ptr + len;
    while (v < end && (*v == ' ' || *v == '\t')) v++;
    while (end > v && (end[-1] == ' ' || end[-1] == '\t')) end--;
    json_t *pair = json_array();
    json_array_push(pair, latin1(name, strlen(name)));
    json_array_push(pair, latin1(v, (size_t)(end - v)));
    json_array_push(h->headers, pair);
    h->n_headers++;
    free(name);
    return n;
}

typedef struct hop_result {
    long status;
    char *effective_url;
    char *location; /* the absolute redirect target libcurl computed, or NULL */
} hop_result;

/* One request without following redirects. 0 with h and out filled; -1 with *error. */
static int perform_hop(const request *r, hop *h, long timeout_ms, long total_timeout_ms, hop_result *out,
                       char **error)
{
    memset(out, 0, sizeof *out);
    if (llm_global_init() != 0) {
        *error = xstrdup("http: libcurl initialisation failed (is libcurl.so.4 installed?)");
        return -1;
    }
    CURL *c = curl_easy_init();
    if (!c) {
        *error = xasprintf("http: libcurl: cannot create a handle (%s)", curl_easy_strerror(CURLE_FAILED_INIT));
        return -1;
    }
    struct curl_slist *hl = NULL;
    bool has_content_type = false;
    for (size_t i = 0; i < r->n_headers; i++) {
        const header *x = &r->headers[i];
        /* "Name:" would delete a header in libcurl; "Name;" sends it empty. */
        char *line = *x->value ? xasprintf("%s: %s", x->name, x->value) : xasprintf("%s;", x->name);
        hl = curl_slist_append(hl, line);
        free(line);
        if (!strcasecmp(x->name, "content-type")) has_content_type = true;
    }
    if (!has_content_type) hl = curl_slist_append(hl, "Content-Type:"); /* no form type of libcurl's own */
    hl = curl_slist_append(hl, "Expect:"); /* no 100-continue round trip */

    char errbuf[CURL_ERROR_SIZE] = "";
    curl_easy_setopt(c, CURLOPT_URL, r->url);
    curl_easy_setopt(c, CURLOPT_PATH_AS_IS, 1L); /* r->url is normalized already: send it as checked */
    curl_restrict_to_http(c);
    curl_easy_setopt(c, CURLOPT_NETRC, (long)CURL_NETRC_IGNORED);
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_FORBID_REUSE, 1L);
    curl_easy_setopt(c, CURLOPT_OPENSOCKETFUNCTION, on_open_socket);
    curl_easy_setopt(c, CURLOPT_OPENSOCKETDATA, h);
    curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(c, CURLOPT_HEADERDATA, h);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, h);
    curl_easy_setopt(c, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)h->cap);
    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, timeout_ms);
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, timeout_ms);
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
    curl_easy_setopt(c, CURLOPT_USERAGENT, "chidori");
    curl_easy_setopt(c, CURLOPT_ACCEPT_ENCODING, ""); /* decoded here, so the size cap counts decoded bytes */
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, hl);
    if (!strcmp(r->method, "GET")) {
        curl_easy_setopt(c, CURLOPT_HTTPGET, 1L);
    } else if (!strcmp(r->method, "HEAD")) {
        curl_easy_setopt(c, CURLOPT_NOBODY, 1L);
    } else {
        if (r->has_body || !strcmp(r->method, "POST")) {
            curl_easy_setopt(c, CURLOPT_POST, 1L);
            curl_easy_setopt(c, CURLOPT_POSTFIELDS, r->has_body ? (const char *)r->body : "");
            curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)(r->has_body ? r->body_len : 0));
        }
        if (strcmp(r->method, "POST") != 0) curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, r->method);
    }

    CURLcode rc = curl_easy_perform(c);
    long os_errno = 0;
    curl_easy_getinfo(c, CURLINFO_OS_ERRNO, &os_errno);
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &out->status);
    char *eff = NULL, *loc = NULL;
    curl_easy_getinfo(c, CURLINFO_EFFECTIVE_URL, &eff);
    curl_easy_getinfo(c, CURLINFO_REDIRECT_URL, &loc);
    out->effective_url = xstrdup(eff ? eff : r->url);
    out->location = loc ? xstrdup(loc) : NULL;
    curl_easy_cleanup(c);
    curl_slist_free_all(hl);
    if (rc == CURLE_OK && !h->headers) {
        rc = CURLE_WEIRD_SERVER_REPLY;
        snprintf(errbuf, sizeof errbuf, "no response head");
    }
    if (rc == CURLE_OK) return 0;

    char *url = shown_url(r->url);
    for (char *p = errbuf; *p; p++)
        if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f) *p = '?';
    const char *detail = *errbuf ? errbuf : curl_easy_strerror(rc);
    if (h->refused && rc == CURLE_COULDNT_CONNECT) { /* every address was refused (or the rest failed) */
        char carried[64] = "";
        if (h->carried.family) {
            char a[48];
            ssrf_format_addr(&h->carried, a, sizeof a);
            snprintf(carried, sizeof carried, " (it carries %s)", a);
        }
        *error = xasprintf("http: refused %s: %s is %s%s; only public addresses can be reached unless "
                           "CHIDORI_HTTP_ALLOW_HOSTS allows the host or address deliberately",
                           url, h->refused_addr, ssrf_class_name(h->refused_class), carried);
    } else if (h->over || rc == CURLE_FILESIZE_EXCEEDED) {
        *error = xasprintf("http: the response from %s is larger than CHIDORI_HTTP_MAX_BYTES (%zu bytes); "
                           "the transfer was stopped", url, h->cap);
    } else if (h->headers_over) {
        *error = xasprintf("http: the response headers from %s are larger than %d bytes or %d lines", url,
                           HTTP_MAX_RESPONSE_HEADER_BYTES, HTTP_MAX_RESPONSE_HEADERS);
    } else if (rc == CURLE_OPERATION_TIMEDOUT) {
        *error = xasprintf("http: %s timed out after %ld ms (CHIDORI_HTTP_TIMEOUT_MS or the request's timeout)",
                           url, total_timeout_ms);
    } else if (rc == CURLE_COULDNT_RESOLVE_HOST) {
        *error = xasprintf("http: cannot resolve the host of %s (%s)", url, detail);
    } else if (rc == CURLE_COULDNT_CONNECT) {
        *error = xasprintf("http: cannot connect to %s: %s (%s)", url, os_errno ? strerror((int)os_errno) : "failed",
                           detail);
    } else {
        *error = xasprintf("http: request to %s failed: %s (%s)", url, curl_easy_strerror(rc), detail);
    }
    free(url);
    return -1;
}

/* ---- redirects ---- */

static bool same_origin(const char *a, const char *b)
{
    char *sa = NULL, *ha = NULL, *sb = NULL, *hb = NULL, *ignored = NULL;
    long pa = 0, pb = 0;
    bool same = parse_url(a, &sa, &ha, &pa, &ignored) == 0 && parse_url(b, &sb, &hb, &pb, &ignored) == 0 &&
                !strcmp(sa, sb) && !strcasecmp(ha, hb) && pa == pb;
    free(ignored);
    free(sa), free(ha), free(sb), free(hb);
    return same;
}

static void drop_header(request *r, const char *name)
{
    size_t o = 0;
    for (size_t i = 0; i < r->n_headers; i++) {
        if (!strcasecmp(r->headers[i].name, name)) {
            free(r->headers[i].name), free(r->headers[i].value);
            continue;
        }
        r->headers[o++] = r->headers[i];
    }
    r->n_headers = o;
}

/* The next hop's request, as fetch specifies: 301/302 turn POST into GET, 303 turns everything
 * but GET and HEAD into GET (dropping the body and its headers); credentials stay behind when the
 * origin changes. */
static void rewrite_for_redirect(request *r, long status, const char *next_url)
{
    if (((status == 301 || status == 302) && !strcmp(r->method, "POST")) ||
        (status == 303 && strcmp(r->method, "GET") != 0 && strcmp(r->method, "HEAD") != 0)) {
        free(r->method);
        r->method = xstrdup("GET");
        free(r->body);
        r->body = NULL;
        r->body_len = 0;
        r->has_body = false;
        static const char *const body_headers[] = {"content-type", "content-encoding", "content-language",
                                                   "content-location"};
        for (size_t i = 0; i < sizeof body_headers / sizeof body_headers[0]; i++) drop_header(r, body_headers[i]);
    }
    if (!same_origin(r->url, next_url)) {
        drop_header(r, "authorization");
        drop_header(r, "cookie");
    }
    free(r->url);
    r->url = xstrdup(next_url);
}

/* The policy again for a redirect hop: the gate saw only the first URL, and a url_prefix rule
 * must not be escaped through a redirect. The hop's args have the op's shape. ask_before is
 * satisfied by the approval of the first request only while the origin stays the same (or by
 * CHIDORI_POLICY_AUTO_APPROVE=1): nothing can be asked in the middle of a request. */
static int gate_hop(host *hst, const request *r, const char *first_url, char **error)
{
    json_t *args = json_object();
    json_object_set(args, "method", json_string(r->method));
    json_object_set(args, "url", json_string(r->url));
    json_t *hs = json_array();
    for (size_t i = 0; i < r->n_headers; i++) {
        json_t *pair = json_array();
        json_array_push(pair, json_string(r->headers[i].name));
        json_array_push(pair, latin1(r->headers[i].value, strlen(r->headers[i].value)));
        json_array_push(hs, pair);
    }
    json_object_set(args, "headers", hs);
    if (r->has_body) {
        size_t n;
        char *b64 = base64_encode(r->body, r->body_len, &n);
        json_object_set(args, "body", json_stringn(b64, n));
        free(b64);
    } else {
        json_object_set(args, "body", json_null());
    }
    json_object_set(args, "redirect", json_string("follow"));
    const char *reason = NULL;
    policy_decision d = host_gate_decide(hst, "http", args, &reason); /* always_allow with no policy */
    json_free(args);
    if (d == POLICY_ALLOW || (d == POLICY_ASK && (host_gate_auto_approves(hst) || same_origin(first_url, r->url))))
        return 0;
    char *u = shown_url(r->url);
    if (d == POLICY_DENY)
        *error = xasprintf("policy: `http` denied%s%s (a redirect to %s)", reason ? ": " : "", reason ? reason : "", u);
    else
        *error = xasprintf("policy: `http` needs approval (ask_before) for a redirect to another origin, %s, which "
                           "cannot be asked in the middle of a request", u);
    free(u);
    fputs("chidori: ", hst->log_out);
    write_for_terminal(hst->log_out, *error, strlen(*error));
    fputc('\n', hst->log_out);
    fflush(hst->log_out);
    return -1;
}

static bool is_redirect(long status) { return status == 301 || status == 302 || status == 303 || status == 307 || status == 308; }

/* ---- the effect ---- */

static int effect_http(host *hst, const json_t *args, json_t **result, char **error)
{
    const http_settings *cfg = host_module_state(hst, &http_module);
    request r = {0};
    if (read_request(cfg, args, &r, error) != 0) {
        request_clear(&r);
        return HOST_ERROR;
    }
    double deadline = clock_monotonic_ns() / 1e6 + (double)r.timeout_ms;
    char *first_url = xstrdup(r.url);
    int rc = HOST_ERROR;
    bool redirected = false;
    for (long hops = 0;; hops++) {
        char *scheme = NULL, *hostname = NULL;
        long port;
        if (parse_url(r.url, &scheme, &hostname, &port, error) != 0) break;
        free(scheme);
        double left = deadline - clock_monotonic_ns() / 1e6;
        if (left < 1) {
            char *u = shown_url(r.url);
            *error = xasprintf("http: %s timed out after %ld ms (CHIDORI_HTTP_TIMEOUT_MS or the request's timeout)",
                               u, r.timeout_ms);
            free(u);
            free(hostname);
            break;
        }
        hop h = {.cfg = cfg, .host = hostname, .cap = cfg->max_bytes};
        hop_result out;
        int ok = perform_hop(&r, &h, (long)left, r.timeout_ms, &out, error);
        free(hostname);
        if (ok != 0) {
            json_free(h.headers);
            free(h.status_text);
            buf_free(&h.body);
            free(out.effective_url);
            free(out.location);
            break;
        }
        if (is_redirect(out.status) && out.location && r.redirect != REDIRECT_MANUAL) {
            char *u = shown_url(first_url);
            if (r.redirect == REDIRECT_ERROR)
                *error = xasprintf("http: %s answered with a redirect (%ld), and the request's redirect mode is "
                                   "\"error\"", u, out.status);
            else if (hops >= cfg->max_redirects)
                *error = xasprintf("http: too many redirects from %s (more than %ld; CHIDORI_HTTP_MAX_REDIRECTS)",
                                   u, cfg->max_redirects);
            free(u);
            bool stop = r.redirect == REDIRECT_ERROR || hops >= cfg->max_redirects;
            char *next = stop ? NULL : normalized_url(out.location, strlen(out.location), error);
            if (!stop && !next) {
                char *why = *error, *from = shown_url(r.url);
                *error = xasprintf("http: the redirect from %s cannot be followed: %s", from,
                                   !strncmp(why, "http: ", 6) ? why + 6 : why);
                free(why);
                free(from);
                stop = true;
            }
            if (!stop) {
                rewrite_for_redirect(&r, out.status, next);
                if (gate_hop(hst, &r, first_url, error) != 0) stop = true;
            }
            free(next);
            json_free(h.headers);
            free(h.status_text);
            buf_free(&h.body);
            free(out.effective_url);
            free(out.location);
            if (stop) break;
            redirected = true;
            continue;
        }
        size_t b64len;
        char *b64 = base64_encode((const unsigned char *)(h.body.data ? h.body.data : ""), h.body.len, &b64len);
        json_t *res = json_object();
        json_object_set(res, "status", json_number((double)out.status));
        json_object_set(res, "status_text", latin1(h.status_text, strlen(h.status_text)));
        json_object_set(res, "url", json_string(r.url)); /* what was checked and sent */
        json_object_set(res, "redirected", json_bool(redirected));
        json_object_set(res, "headers", h.headers);
        json_object_set(res, "body", json_stringn(b64, b64len));
        free(b64);
        free(h.status_text);
        buf_free(&h.body);
        free(out.effective_url);
        free(out.location);
        *result = res;
        rc = HOST_OK;
        break;
    }
    free(first_url);
    request_clear(&r);
    return rc;
}

/* ---- the module ---- */

static int http_init(host *h, const host_config *cfg, void **state, char **error)
{
    *state = http_settings_new(cfg->settings, error); /* from the settings the edge read */
    return *state ? 0 : -1;
}

static void http_free(void *state) { http_settings_free(state); }

/* The policy sees `http` and the call's args (with the URL in its normalized form). */
static char *http_target(const json_t *args, const json_t **match)
{
    *match = args;
    return xstrdup("http");
}

static const op_def http_ops[] = {
    {.name = "http",
     .flags = OP_RECORDED | OP_GATED,
     .perform = effect_http,
     .prepare = http_prepare_args,
     .target = http_target},
    {0},
};

static const char *const http_targets[] = {"http", NULL};
static const char *const http_settings_read[] = {"CHIDORI_HTTP_MAX_BYTES",  "CHIDORI_HTTP_MAX_REQUEST_BYTES",
                                                 "CHIDORI_HTTP_MAX_REDIRECTS", "CHIDORI_HTTP_TIMEOUT_MS",
                                                 "CHIDORI_HTTP_ALLOW_HOSTS", NULL};

const effect_module http_module = {
    .name = "http",
    .ops = http_ops,
    .targets = http_targets,
    .init = http_init,
    .free = http_free,
    .settings = http_settings_read,
};
