/* http.c — the listening socket and libmicrohttpd (see http.h).
 *
 * Owns the socket, the daemon, each connection's request buffer. Trusts nothing of a request:
 * the body is capped (HTTP_BODY_MAX; a Content-Length over it is refused before the body is
 * read, a chunked body is counted as it arrives), the path is decoded here and refused with a
 * 400 when it hides a NUL, header values are only passed on, and the router answers everything
 * else.
 */
#define _GNU_SOURCE
#include "serve/http.h"
#include "serve/sse.h"
#include "util/buf.h"

#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CONNECTION_LIMIT 512
#define CONNECTION_IDLE_SECS 300
#define SSE_BLOCK_BYTES (64 * 1024)

struct http_server {
    struct MHD_Daemon *daemon;
    http_handler_fn *fn;
    void *ctx;
};

/* One request being read. */
typedef struct request_ctx {
    buf body;
    bool too_large;
} request_ctx;

void reply_json(http_reply *r, int status, json_t *v)
{
    r->status = status;
    free(r->body);
    r->body = json_dump(v, JSON_COMPACT, NULL);
    json_free(v);
}

void reply_error(http_reply *r, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *message = NULL;
    if (vasprintf(&message, fmt, ap) < 0) message = NULL;
    va_end(ap);
    json_t *o = json_object();
    json_object_set(o, "error", json_string(message ? message : "error"));
    free(message);
    reply_json(r, status, o);
}

/* ---------- the socket ---------- */

static bool address_is_loopback(const struct sockaddr *sa)
{
    if (sa->sa_family == AF_INET) {
        const struct sockaddr_in *in = (const struct sockaddr_in *)sa;
        return (ntohl(in->sin_addr.s_addr) >> 24) == 127;
    }
    if (sa->sa_family == AF_INET6) {
        const struct in6_addr *a = &((const struct sockaddr_in6 *)sa)->sin6_addr;
        if (IN6_IS_ADDR_LOOPBACK(a)) return true;
        return IN6_IS_ADDR_V4MAPPED(a) && a->s6_addr[12] == 127;
    }
    return false;
}

int http_listen(const char *host, int port, bool loopback_only, int *fd_out, char **error)
{
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE};
    struct addrinfo *res = NULL;
    char service[16];
    snprintf(service, sizeof service, "%d", port);
    int gai = getaddrinfo(host, service, &hints, &res);
    if (gai != 0) {
        *error = xasprintf("cannot resolve --host %s: %s", host, gai_strerror(gai));
        return -1;
    }
    int fd = -1, err = 0;
    for (struct addrinfo *ai = res; ai; ai = ai->ai_next) {
        if (loopback_only && !address_is_loopback(ai->ai_addr)) {
            err = -1;
            continue;
        }
        fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
        if (fd < 0) {
            err = errno;
            continue;
        }
        int one = 1;
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (ai->ai_family == AF_INET6) setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one);
        if (bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 && listen(fd, 128) == 0) break;
        err = errno;
        close(fd);
        fd = -1;
    }
    freeaddrinfo(res);
    if (fd < 0 && err == -1) {
        *error = xasprintf("refusing to listen on %s, which is not a loopback address, without an API key: set "
                           "CHIDORI_API_KEY (clients then send `Authorization: Bearer <key>`)",
                           host);
        return -2;
    }
    if (fd < 0) {
        *error = xasprintf("cannot listen on %s port %d: %s", host, port, strerror(err));
        return -1;
    }
    *fd_out = fd;
    return 0;
}

char *http_bound_address(int fd)
{
    struct sockaddr_storage ss;
    socklen_t len = sizeof ss;
    char host[INET6_ADDRSTRLEN] = "?";
    if (getsockname(fd, (struct sockaddr *)&ss, &len) != 0) return xstrdup("?");
    if (ss.ss_family == AF_INET6) {
        const struct sockaddr_in6 *in = (const struct sockaddr_in6 *)&ss;
        inet_ntop(AF_INET6, &in->sin6_addr, host, sizeof host);
        return xasprintf("[%s]:%d", host, ntohs(in->sin6_port));
    }
    const struct sockaddr_in *in = (const struct sockaddr_in *)&ss;
    inet_ntop(AF_INET, &in->sin_addr, host, sizeof host);
    return xasprintf("%s:%d", host, ntohs(in->sin_port));
}

/* ---------- responses ---------- */

static ssize_t sse_callback(void *cls, uint64_t pos, char *out, size_t max)
{
    (void)pos;
    ssize_t n = sse_read(cls, out, max);
    return n < 0 ? MHD_CONTENT_READER_END_OF_STREAM : n;
}

static void sse_free_callback(void *cls) { sse_free(cls); }

static enum MHD_Result send_reply(struct MHD_Connection *conn, http_reply *rep)
{
    struct MHD_Response *resp;
    if (rep->stream) {
        resp = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, SSE_BLOCK_BYTES, sse_callback, rep->stream,
                                                 sse_free_callback);
        if (!resp) {
            sse_free(rep->stream);
            rep->stream = NULL;
            return MHD_NO;
        }
        rep->stream = NULL; /* the response owns it now */
        MHD_add_response_header(resp, "Content-Type", "text/event-stream");
        MHD_add_response_header(resp, "Cache-Control", "no-cache");
        MHD_add_response_header(resp, "X-Accel-Buffering", "no");
        if (rep->session_id) MHD_add_response_header(resp, "X-Session-Id", rep->session_id);
    } else if (rep->static_body) {
        resp = MHD_create_response_from_buffer(rep->static_len, (void *)rep->static_body, MHD_RESPMEM_PERSISTENT);
        if (!resp) return MHD_NO;
        if (rep->content_type) MHD_add_response_header(resp, "Content-Type", rep->content_type);
    } else {
        const char *body = rep->body ? rep->body : "";
        resp = MHD_create_response_from_buffer(strlen(body), (void *)body, MHD_RESPMEM_MUST_COPY);
        if (!resp) return MHD_NO;
        if (rep->body) MHD_add_response_header(resp, "Content-Type", "application/json");
    }
    for (const char *const *h = rep->headers; h && h[0] && h[1]; h += 2) MHD_add_response_header(resp, h[0], h[1]);
    if (rep->allow) MHD_add_response_header(resp, "Allow", rep->allow);
    if (rep->retry_after > 0) {
        char v[16];
        snprintf(v, sizeof v, "%d", rep->retry_after);
        MHD_add_response_header(resp, "Retry-After", v);
    }
    if (rep->www_authenticate) MHD_add_response_header(resp, "WWW-Authenticate", "Bearer");
    if (rep->cors_origin) {
        MHD_add_response_header(resp, "Access-Control-Allow-Origin", rep->cors_origin);
        MHD_add_response_header(resp, "Vary", "Origin");
        if (rep->preflight) {
            MHD_add_response_header(resp, "Access-Control-Allow-Methods", "GET, POST, OPTIONS");
            MHD_add_response_header(resp, "Access-Control-Allow-Headers", "Authorization, Content-Type");
            MHD_add_response_header(resp, "Access-Control-Max-Age", "600");
        } else {
            MHD_add_response_header(resp, "Access-Control-Expose-Headers", "Retry-After, X-Session-Id");
        }
    }
    enum MHD_Result ok = MHD_queue_response(conn, (unsigned)rep->status, resp);
    MHD_destroy_response(resp);
    return ok;
}

static enum MHD_Result send_error_now(struct MHD_Connection *conn, int status, const char *message)
{
    http_reply rep = {0};
    reply_error(&rep, status, "%s", message);
    enum MHD_Result ok = send_reply(conn, &rep);
    free(rep.body);
    return ok;
}

/* ---------- requests ---------- */

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

int http_decode_path(const char *raw, char **out, const char **why)
{
    size_t n = strlen(raw);
    char *path = xmalloc(n + 1), *o = path;
    *out = NULL;
    for (size_t i = 0; i < n; i++) {
        if (raw[i] != '%') {
            *o++ = raw[i];
            continue;
        }
        int hi = hex_digit(raw[i + 1]), lo = hi < 0 ? -1 : hex_digit(raw[i + 2]);
        if (hi < 0 || lo < 0) {
            *why = "a `%` not followed by two hex digits";
            free(path);
            return -1;
        }
        if (hi == 0 && lo == 0) {
            *why = "an encoded NUL (%00)";
            free(path);
            return -1;
        }
        *o++ = (char)(hi * 16 + lo);
        i += 2;
    }
    *o = '\0';
    *out = path;
    return 0;
}

/* libmicrohttpd would decode the path in place, and a %00 would then cut it short
 * (`/sessions/abc%00x` reaching the router as `/sessions/abc`): keep it as it came, and let
 * http_decode_path decode it. (The query, which no route reads, stays encoded too.) */
static size_t keep_escapes(void *cls, struct MHD_Connection *conn, char *s)
{
    (void)cls, (void)conn;
    return strlen(s);
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url, const char *method,
                                  const char *version, const char *upload_data, size_t *upload_data_size,
                                  void **con_cls)
{
    (void)version;
    http_server *srv = cls;
    request_ctx *rc = *con_cls;
    if (!rc) {
        rc = xcalloc(1, sizeof *rc);
        *con_cls = rc;
        const char *cl = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Content-Length");
        if (cl) {
            char *end;
            errno = 0;
            unsigned long long n = strtoull(cl, &end, 10);
            if (errno || *end || n > HTTP_BODY_MAX) {
                rc->too_large = true;
                /* answered before the body is read; the connection is closed after it */
                return send_error_now(conn, 413, "the request body is larger than 1 MiB");
            }
        }
        return MHD_YES;
    }
    if (*upload_data_size) {
        if (!rc->too_large && rc->body.len + *upload_data_size <= HTTP_BODY_MAX)
            buf_append(&rc->body, upload_data, *upload_data_size);
        else
            rc->too_large = true;
        *upload_data_size = 0;
        return MHD_YES;
    }
    if (rc->too_large) return send_error_now(conn, 413, "the request body is larger than 1 MiB");

    char *path = NULL;
    const char *why = NULL;
    if (http_decode_path(url, &path, &why) < 0) {
        char *message = xasprintf("bad request path: %s", why);
        enum MHD_Result ok = send_error_now(conn, 400, message);
        free(message);
        return ok;
    }
    http_request req = {
        .method = method,
        .path = path,
        .authorization = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Authorization"),
        .origin = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Origin"),
        .body = rc->body.data ? rc->body.data : "",
        .body_len = rc->body.len,
    };
    http_reply rep = {0};
    srv->fn(srv->ctx, &req, &rep);
    if (!rep.status) reply_error(&rep, 500, "the request was not answered");
    enum MHD_Result ok = send_reply(conn, &rep);
    free(rep.body);
    free(rep.session_id);
    if (rep.stream) sse_free(rep.stream);
    free(path);
    return ok;
}

static void on_completed(void *cls, struct MHD_Connection *conn, void **con_cls, enum MHD_RequestTerminationCode why)
{
    (void)cls, (void)conn, (void)why;
    request_ctx *rc = *con_cls;
    if (!rc) return;
    buf_free(&rc->body);
    free(rc);
    *con_cls = NULL;
}

static void on_mhd_error(void *cls, const char *fmt, va_list ap)
{
    (void)cls;
    fputs("chidori serve: http: ", stderr);
    vfprintf(stderr, fmt, ap);
}

http_server *http_start(int listen_fd, http_handler_fn *fn, void *ctx, char **error)
{
    http_server *srv = xcalloc(1, sizeof *srv);
    srv->fn = fn;
    srv->ctx = ctx;
    srv->daemon = MHD_start_daemon(
        MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL | MHD_USE_ERROR_LOG, 0, NULL,
        NULL, on_request, srv, MHD_OPTION_EXTERNAL_LOGGER, on_mhd_error, NULL, MHD_OPTION_LISTEN_SOCKET, listen_fd,
        MHD_OPTION_CONNECTION_LIMIT, (unsigned)CONNECTION_LIMIT, MHD_OPTION_CONNECTION_TIMEOUT,
        (unsigned)CONNECTION_IDLE_SECS, MHD_OPTION_NOTIFY_COMPLETED, on_completed, NULL, MHD_OPTION_UNESCAPE_CALLBACK, keep_escapes, NULL,
        MHD_OPTION_END);
    if (!srv->daemon) {
        *error = xstrdup("cannot start the HTTP server (libmicrohttpd)");
        free(srv);
        return NULL;
    }
    return srv;
}

void http_stop(http_server *srv)
{
    if (!srv) return;
    MHD_stop_daemon(srv->daemon);
    free(srv);
}
