/* httpd.h — the HTTP/1.1 transport of `chidori serve`, on libmicrohttpd.
 *
 * httpd.c owns the listening socket and the daemon, reads each request with a body cap, hands a
 * parsed http_request to the router and turns the http_reply it fills into a response (JSON, or a
 * Server-Sent Events stream). It knows nothing of sessions.
 *
 * Threads: libmicrohttpd runs event-driven (epoll) on a small pool of threads shared by every
 * connection, so an idle or slow connection costs a socket and a little memory, not a thread.
 * A handler must therefore not block: a reply that waits for a run to settle is handed back as
 * http_reply.wait/later (the connection suspended until the run's thread says it has settled, no
 * thread waiting), and a stream with nothing to send waits in sse_wait on a thread of its own, the
 * connection suspended meanwhile. Connections are capped in all and per
 * client address, and closed after an idle timeout, or when their request headers are not complete
 * within the header timeout of their acceptance or of their previous reply (http_settings).
 */
#ifndef CHIDORI_SERVE_HTTP_H
#define CHIDORI_SERVE_HTTP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "util/json.h"

#define HTTP_BODY_MAX ((size_t)1 << 20) /* a request body larger than this is a 413 */

typedef struct http_request {
    const char *method;
    const char *path;          /* decoded (http_decode_path), without the query */
    const char *authorization; /* header values, or NULL */
    const char *origin;
    const char *host;
    const char *sec_fetch_site;
    const char *content_type;
    const char *traceparent;   /* W3C trace context, unchecked (telemetry/otel.h checks it) */
    const char *body;          /* NUL-terminated; "" when there is none */
    size_t body_len;
} http_request;

typedef struct sse_stream sse_stream;
typedef struct http_reply http_reply;

struct http_reply {
    int status;
    char *body;               /* JSON text (owned), unless stream is set */
    sse_stream *stream;       /* a Server-Sent Events response (owned) */
    const char *allow;        /* 405: the Allow header */
    int retry_after;          /* seconds; 0: no Retry-After */
    bool www_authenticate;    /* 401 */
    const char *cors_origin;  /* echo as Access-Control-Allow-Origin (points into the request) */
    bool preflight;           /* answer a CORS preflight */
    char *session_id;         /* X-Session-Id on stream responses (owned) */
    const void *static_body;  /* a static file (not owned; the dashboard, ui.c) instead of body */
    size_t static_len;
    const char *content_type; /* of static_body */
    const char *const *headers; /* extra header name, value pairs, NULL-terminated (static) */
    bool close;               /* `Connection: close`: the connection ends after this reply */
    /* A reply that must wait, without holding a thread: set by a handler (with nothing else
     * but cors_origin). httpd.c suspends the connection and calls wait(arg, done, done_arg), which
     * arranges for done(done_arg) to be called once, from any thread, when it is time to answer
     * (true), or says that it is time already (false). Then, on an HTTP thread, later(arg, r)
     * fills the reply and frees arg. */
    bool (*wait)(void *later_arg, void (*done)(void *), void *done_arg);
    void (*later)(void *later_arg, http_reply *r);
    void *later_arg;
};

/* Fill a reply: JSON (takes v over), or {"error": message}. */
void reply_json(http_reply *r, int status, json_t *v);
void reply_error(http_reply *r, int status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Percent-decode a request path as it came on the request line (without the query): 0 with
 * *path (malloc'd), or -1 with *why when it has an encoded NUL (a `/sessions/abc%00x` must not
 * name session `abc`) or a `%` without two hex digits after it (a 400). */
int http_decode_path(const char *raw, char **path, const char **why);

typedef void http_handler_fn(void *ctx, const http_request *req, http_reply *rep);

typedef struct http_server http_server;

/* The transport's limits (serve.c reads them from the environment). */
typedef struct http_settings {
    int threads;          /* CHIDORI_SERVE_HTTP_THREADS: the event loop's threads */
    int max_connections;  /* CHIDORI_SERVE_MAX_CONNECTIONS: open connections in all */
    int max_per_client;   /* CHIDORI_SERVE_MAX_CONNECTIONS_PER_CLIENT: from one IP address */
    int idle_timeout_s;   /* CHIDORI_SERVE_IDLE_TIMEOUT: a connection silent this long is closed */
    int header_timeout_s; /* CHIDORI_SERVE_HEADER_TIMEOUT: a request's headers are due within this */
} http_settings;

#define HTTP_DEFAULT_THREADS 2
#define HTTP_DEFAULT_MAX_CONNECTIONS 1024
#define HTTP_DEFAULT_MAX_PER_CLIENT 128
#define HTTP_DEFAULT_IDLE_TIMEOUT_S 15
#define HTTP_DEFAULT_HEADER_TIMEOUT_S 10

/* Resolve host (an IP address or a name) and bind a listening socket on port (0: any free one).
 * With loopback_only, an address that is not a loopback one is refused before anything is bound
 * (-2). -1 with *error when it cannot listen. */
int http_listen(const char *host, int port, bool loopback_only, int *fd, char **error);
/* The bound address as text for "Listening on http://...": "127.0.0.1:8080", "[::1]:8080". */
char *http_bound_address(int fd);

http_server *http_start(int listen_fd, const http_settings *settings, http_handler_fn *fn, void *ctx,
                        char **error);
/* Stop the daemon. Call after whatever later work waits for has been told to stop (sessions_stop):
 * suspended connections are resumed by their threads first, waited for up to a few seconds. */
void http_stop(http_server *srv);

#endif
