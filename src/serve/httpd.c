/* httpd.c — the listening socket and libmicrohttpd (see httpd.h).
 *
 * Owns the socket, the daemon, each connection's request buffer, the suspension of a connection
 * whose reply waits, and the threads that wait for a stream's next event. Trusts nothing of a request:
 * the body is capped (HTTP_BODY_MAX; a Content-Length over it is refused before the body is
 * read, a chunked body is counted as it arrives), the path is decoded here and refused with a
 * 400 when it hides a NUL, header values are only passed on, and the router answers everything
 * else. A connection's request headers must be complete within the header timeout
 * (header_deadline.h); a reply the router marks `close` ends its connection.
 */
#define _GNU_SOURCE
#include "serve/httpd.h"
#include "util/clock.h"
#include "serve/header_deadline.h"
#include "serve/sse.h"
#include "util/buf.h"
#include "util/threads.h"

#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define SSE_BLOCK_BYTES (64 * 1024)
/* Each connection's memory pool (its request's line and headers and read buffer, its reply's
 * headers): a request's headers must fit in it (about 28 KiB; beyond, libmicrohttpd answers 431).
 * Up to 32 KiB libmicrohttpd takes it from malloc; above, it maps a fresh one per connection,
 * clears it, and unmaps it at the close, and on this 2-vCPU virtual machine that cost a quarter
 * of the server's CPU (fresh pages' faults, and the unmap's TLB shootdown across CPUs): 32 KiB
 * from malloc gave 1.09x the isolated sessions per second (docs/http-api.md). A pool freed at a
 * close is the next connection's on that thread; the load test's RSS growth was no higher. */
#define CONNECTION_POOL_BYTES (32 * 1024)
#define STOP_WAIT_MS 15000     /* for suspended connections to be resumed, at shutdown */
#define LOG_BURST 20           /* libmicrohttpd messages printed per LOG_WINDOW_S; the rest counted */
#define LOG_WINDOW_S 10

struct http_server {
    struct MHD_Daemon *daemon;
    header_deadlines *deadlines; /* each connection's request headers are due in time */
    http_handler_fn *fn;
    void *ctx;
    pthread_mutex_t lock;
    pthread_cond_t resumed;
    int suspended; /* connections suspended and not yet resumed */
    time_t log_window;
    int log_count, log_dropped;
};

/* One request being read, then (when its reply is later work) answered. */
typedef struct request_ctx {
    buf body;
    bool too_large;
    bool waiting;    /* rep holds a reply that waits (http_reply.wait) */
    http_reply rep;
    http_server *srv;
    struct MHD_Connection *conn;
} request_ctx;

/* A stream response's reader. */
typedef struct stream_ctx {
    sse_stream *st;
    http_server *srv;
    struct MHD_Connection *conn;
} stream_ctx;

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

/* ---------- suspended connections ---------- */

typedef struct parked {
    http_server *srv;
    struct MHD_Connection *conn;
    void (*wait)(void *arg);
    void *arg;
} parked;

static void *parked_main(void *p)
{
    parked *pk = p;
    pk->wait(pk->arg);
    MHD_resume_connection(pk->conn);
    pthread_mutex_lock(&pk->srv->lock);
    pk->srv->suspended--;
    pthread_cond_broadcast(&pk->srv->resumed);
    pthread_mutex_unlock(&pk->srv->lock);
    free(pk);
    return NULL;
}

/* Suspend conn (from its access handler or content reader) and run wait(arg) on a thread of its
 * own, which resumes it after. false when no thread could be had: nothing is suspended, and the
 * caller runs wait itself (blocking one of the pool's threads, which is slower but correct). */
static bool park(http_server *srv, struct MHD_Connection *conn, void (*wait)(void *), void *arg)
{
    parked *pk = xmalloc(sizeof *pk);
    *pk = (parked){srv, conn, wait, arg};
    pthread_mutex_lock(&srv->lock);
    srv->suspended++;
    pthread_mutex_unlock(&srv->lock);
    MHD_suspend_connection(conn);
    if (threads_run_detached(parked_main, pk) == 0) return true;
    MHD_resume_connection(conn);
    pthread_mutex_lock(&srv->lock);
    srv->suspended--;
    pthread_cond_broadcast(&srv->resumed);
    pthread_mutex_unlock(&srv->lock);
    free(pk);
    return false;
}

/* ---------- responses ---------- */

static void stream_wait(void *arg) { sse_wait(((stream_ctx *)arg)->st); }

static ssize_t sse_callback(void *cls, uint64_t pos, char *out, size_t max)
{
    (void)pos;
    stream_ctx *sc = cls;
    ssize_t n = sse_read(sc->st, out, max);
    if (n == 0) {
        /* nothing yet: wait off the pool's threads, then MHD calls again */
        if (park(sc->srv, sc->conn, stream_wait, sc)) return 0;
        sse_wait(sc->st);
        n = sse_read(sc->st, out, max);
    }
    return n < 0 ? MHD_CONTENT_READER_END_OF_STREAM : n;
}

static void sse_free_callback(void *cls)
{
    stream_ctx *sc = cls;
    sse_free(sc->st);
    free(sc);
}

static enum MHD_Result send_reply(http_server *srv, struct MHD_Connection *conn, http_reply *rep)
{
    struct MHD_Response *resp;
    if (rep->stream) {
        stream_ctx *sc = xmalloc(sizeof *sc);
        *sc = (stream_ctx){rep->stream, srv, conn};
        rep->stream = NULL; /* the response owns it now */
        resp = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, SSE_BLOCK_BYTES, sse_callback, sc,
                                                 sse_free_callback);
        if (!resp) {
            sse_free_callback(sc);
            return MHD_NO;
        }
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
    /* libmicrohttpd closes the connection once this reply is sent */
    if (rep->close) MHD_add_response_header(resp, "Connection", "close");
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

static void reply_clear(http_reply *rep)
{
    if (rep->later) rep->later(rep->later_arg, rep); /* never answered: let it free its arg */
    free(rep->body);
    free(rep->session_id);
    if (rep->stream) sse_free(rep->stream);
    memset(rep, 0, sizeof *rep);
}

static enum MHD_Result send_error_now(struct MHD_Connection *conn, int status, const char *message)
{
    http_reply rep = {.close = true}; /* a malformed or oversized request: its connection is not kept */
    reply_error(&rep, status, "%s", message);
    enum MHD_Result ok = send_reply(NULL, conn, &rep);
    free(rep.body);
    return ok;
}

/* A reply that waits (http_reply.wait) is told it is time: resume its connection. From any
 * thread; the connection may be answered and gone as soon as it is resumed. */
static void resume_waiting(void *arg)
{
    request_ctx *rc = arg;
    http_server *srv = rc->srv;
    MHD_resume_connection(rc->conn);
    pthread_mutex_lock(&srv->lock);
    srv->suspended--;
    pthread_cond_broadcast(&srv->resumed);
    pthread_mutex_unlock(&srv->lock);
}

/* Then its reply, on the HTTP thread. */
static void fill_later(request_ctx *rc, http_reply *out)
{
    void (*later)(void *, http_reply *) = rc->rep.later;
    void *arg = rc->rep.later_arg;
    *out = rc->rep;
    out->wait = NULL, out->later = NULL, out->later_arg = NULL;
    memset(&rc->rep, 0, sizeof rc->rep);
    rc->waiting = false;
    later(arg, out);
}

/* ---------- requests ---------- */

/* The header deadline's slot of a connection (set when it was accepted), or NULL. */
static hd_slot *slot_of(struct MHD_Connection *conn)
{
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return ci ? ci->socket_context : NULL;
}

static void on_connection(void *cls, struct MHD_Connection *conn, void **socket_context,
                          enum MHD_ConnectionNotificationCode toe)
{
    http_server *srv = cls;
    if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
        const union MHD_ConnectionInfo *ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
        *socket_context = ci ? header_deadlines_add(srv->deadlines, ci->connect_fd) : NULL;
    } else if (toe == MHD_CONNECTION_NOTIFY_CLOSED) {
        header_deadlines_remove(srv->deadlines, *socket_context); /* before libmicrohttpd closes the socket */
        *socket_context = NULL;
    }
}

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
    http_server *srv = cls;
    request_ctx *rc = *con_cls;
    if (rc && rc->waiting) { /* resumed: its wait is over */
        http_reply rep;
        fill_later(rc, &rep);
        if (!rep.status) reply_error(&rep, 500, "the request was not answered");
        enum MHD_Result ok = send_reply(srv, conn, &rep);
        reply_clear(&rep);
        return ok;
    }
    if (!rc) {
        /* the first call for a request comes once its headers are in */
        header_deadlines_met(slot_of(conn));
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

    /* HTTP/1.1 requires a Host header (RFC 9112, 3.2): one that is missing here was left out or
     * hidden (`Host : x`, a folded `Host:` line), and the router answers a request without one
     * as it would an HTTP/1.0 one, past the Host check */
    if (version && !strcmp(version, MHD_HTTP_VERSION_1_1) && !MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Host"))
        return send_error_now(conn, 400, "an HTTP/1.1 request needs one Host header naming the server");
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
        .host = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Host"),
        .sec_fetch_site = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Sec-Fetch-Site"),
        .content_type = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Content-Type"),
        .traceparent = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "traceparent"),
        .body = rc->body.data ? rc->body.data : "",
        .body_len = rc->body.len,
    };
    http_reply rep = {0};
    srv->fn(srv->ctx, &req, &rep);
    free(path);
    if (rep.wait) {
        rc->rep = rep;
        rc->waiting = true;
        rc->srv = srv;
        rc->conn = conn;
        pthread_mutex_lock(&srv->lock);
        srv->suspended++;
        pthread_mutex_unlock(&srv->lock);
        MHD_suspend_connection(conn); /* before wait: its done may come at once, from another thread */
        if (rep.wait(rep.later_arg, resume_waiting, rc)) return MHD_YES; /* answered when resumed */
        resume_waiting(rc);
        fill_later(rc, &rep);
    }
    if (!rep.status) reply_error(&rep, 500, "the request was not answered");
    enum MHD_Result ok = send_reply(srv, conn, &rep);
    reply_clear(&rep);
    return ok;
}

static void on_completed(void *cls, struct MHD_Connection *conn, void **con_cls, enum MHD_RequestTerminationCode why)
{
    http_server *srv = cls;
    /* a reply sent on a connection kept open: the next request's headers are due in time */
    if (why == MHD_REQUEST_TERMINATED_COMPLETED_OK) header_deadlines_rearm(srv->deadlines, slot_of(conn));
    request_ctx *rc = *con_cls;
    if (!rc) return;
    buf_free(&rc->body);
    reply_clear(&rc->rep);
    free(rc);
    *con_cls = NULL;
}

/* libmicrohttpd's messages (a refused connection, a client that broke the protocol), at most
 * LOG_BURST per LOG_WINDOW_S: a flood of connections must not flood the operator's log too. */
static void on_mhd_error(void *cls, const char *fmt, va_list ap)
{
    http_server *srv = cls;
    time_t now = time(NULL);
    pthread_mutex_lock(&srv->lock);
    if (now - srv->log_window >= LOG_WINDOW_S) {
        if (srv->log_dropped)
            fprintf(stderr, "chidori serve: http: %d more messages in the last %d s not shown\n", srv->log_dropped,
                    LOG_WINDOW_S);
        srv->log_window = now;
        srv->log_count = srv->log_dropped = 0;
    }
    if (srv->log_count++ < LOG_BURST) {
        fputs("chidori serve: http: ", stderr);
        vfprintf(stderr, fmt, ap);
    } else {
        srv->log_dropped++;
    }
    pthread_mutex_unlock(&srv->lock);
}

http_server *http_start(int listen_fd, const http_settings *hs, http_handler_fn *fn, void *ctx, char **error)
{
    http_server *srv = xcalloc(1, sizeof *srv);
    srv->fn = fn;
    srv->ctx = ctx;
    pthread_mutex_init(&srv->lock, NULL);
    clock_monotonic_cond_init(&srv->resumed);
    /* room for every connection the daemon keeps, and a few it may be closing */
    srv->deadlines = header_deadlines_start(hs->max_connections + 64, hs->header_timeout_s);
    if (!srv->deadlines) {
        *error = xstrdup("cannot start the HTTP server: no thread for its header deadlines");
        pthread_cond_destroy(&srv->resumed);
        pthread_mutex_destroy(&srv->lock);
        free(srv);
        return NULL;
    }
    /* Event-driven on a pool of threads: each thread of the pool accepts and serves connections
     * with epoll; a suspended connection is off every thread until it is resumed. The connection
     * limit is shared out among the pool's threads, the per-address one counted across them. */
    srv->daemon = MHD_start_daemon(
        MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ERROR_LOG, 0, NULL, NULL,
        on_request, srv, MHD_OPTION_EXTERNAL_LOGGER, on_mhd_error, srv, MHD_OPTION_LISTEN_SOCKET, listen_fd,
        MHD_OPTION_THREAD_POOL_SIZE, (unsigned)(hs->threads > 1 ? hs->threads : 0) /* 0: the one polling thread */, MHD_OPTION_CONNECTION_LIMIT, (unsigned)hs->max_connections,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned)hs->max_per_client, MHD_OPTION_CONNECTION_MEMORY_LIMIT,
        (size_t)CONNECTION_POOL_BYTES, MHD_OPTION_CONNECTION_TIMEOUT,
        (unsigned)hs->idle_timeout_s, MHD_OPTION_NOTIFY_COMPLETED, on_completed, srv,
        MHD_OPTION_NOTIFY_CONNECTION, on_connection, srv, MHD_OPTION_UNESCAPE_CALLBACK,
        keep_escapes, NULL, MHD_OPTION_END);
    if (!srv->daemon) {
        *error = xstrdup("cannot start the HTTP server (libmicrohttpd)");
        header_deadlines_stop(srv->deadlines);
        pthread_cond_destroy(&srv->resumed);
        pthread_mutex_destroy(&srv->lock);
        free(srv);
        return NULL;
    }
    return srv;
}

void http_stop(http_server *srv)
{
    if (!srv) return;
    /* libmicrohttpd must not be stopped with a connection suspended: their threads, told to stop
     * by now, resume them first. One that does not within STOP_WAIT_MS leaves the daemon running
     * (the process is about to end). */
    struct timespec until = clock_monotonic_after_ms(STOP_WAIT_MS);
    pthread_mutex_lock(&srv->lock);
    while (srv->suspended > 0 && pthread_cond_timedwait(&srv->resumed, &srv->lock, &until) == 0) {
    }
    bool idle = srv->suspended == 0;
    pthread_mutex_unlock(&srv->lock);
    if (!idle) {
        fprintf(stderr, "chidori serve: http: %d connections still waiting at shutdown; not stopping the HTTP "
                        "server under them\n", srv->suspended);
        return;
    }
    MHD_stop_daemon(srv->daemon);
    header_deadlines_stop(srv->deadlines);
    pthread_cond_destroy(&srv->resumed);
    pthread_mutex_destroy(&srv->lock);
    free(srv);
}
