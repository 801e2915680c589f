/* serve.h — `chidori serve`: the pieces of the server and how they meet.
 *
 *   serve.c     start-up (policy and isolation banners) and shutdown; the command line is cli/'s
 *   httpd.c     the transport (libmicrohttpd, event-driven on a small pool of threads)
 *   router.c    method + path → handler; Host, Origin and content-type checks; CORS; authentication
 *   api.c       the handlers: request checks, session operations, replies
 *   api_signal.c  POST /sessions/{id}/signal;  signal_deadlines.c  its timeouts;  store_signals.c  mailboxes
 *   api_snapshot.c  GET /sessions/{id}/snapshot;  replay_from.c  POST /sessions' given call log
 *   request.c   request bodies as JSON, strictly
 *   sessions.c  session lifecycle and run threads;  sse.c  event streams;
 *   session_log.c  each session's log lines, prefixed with its id
 *   store.c     SQLite;  auth.c  API keys, CORS origins, allowed host names
 *   ui.c        the dashboard's files (ui/, embedded at build time), at /ui
 *
 * See docs/http-api.md for the API itself.
 */
#ifndef CHIDORI_SERVE_H
#define CHIDORI_SERVE_H

#include "serve/auth.h"
#include "serve/httpd.h"
#include "serve/sessions.h"
#include "telemetry/prices.h"

typedef struct server {
    sessions *ss;
    auth_config auth;
    price_table prices; /* CHIDORI_PRICES / CHIDORI_PRICING, for the dashboard's costs (GET /pricing) */
} server;

/* router.c: the http_handler_fn of the server (ctx is the server). */
void router_handle(void *ctx, const http_request *req, http_reply *rep);

/* api.c */
void api_create(server *srv, const http_request *req, http_reply *rep, bool stream);
void api_list(server *srv, http_reply *rep);
void api_get(server *srv, session *s, http_reply *rep);
void api_stream(server *srv, session *s, http_reply *rep);
void api_checkpoint(server *srv, session *s, http_reply *rep);
/* api_snapshot.c */
void api_snapshot(server *srv, session *s, http_reply *rep);
/* These two return true when they keep the caller's reference to s (their reply waits for the
 * run, as later work that releases it): the caller then must not release it. */
bool api_resume(server *srv, session *s, const http_request *req, http_reply *rep);
bool api_approve(server *srv, session *s, const http_request *req, http_reply *rep);
void api_cancel(server *srv, session *s, const http_request *req, http_reply *rep);
void api_replay(server *srv, session *s, const http_request *req, http_reply *rep);
void api_pricing(server *srv, http_reply *rep);
/* api.c, for handlers in files of their own: the reply of an operation that resumed a run (200
 * with the view once it has settled, or at once unless wait; takes the reference to s over), and
 * a failure's ({"error"} with the status of r; frees error). */
void api_reply_after_run(server *srv, session *s, bool wait, http_reply *rep);
void api_reply_failure(server *srv, http_reply *rep, ss_result r, char *error);
/* api_signal.c: POST /sessions/{id}/signal; true when it keeps the reference to s (as api_resume). */
bool api_signal(server *srv, session *s, const http_request *req, http_reply *rep);

/* request.c: the body as a JSON object ({} for an empty body), checked against the keys it may
 * hold. NULL with a 400 in rep. */
json_t *request_object(const http_request *req, const char *const *keys, http_reply *rep);
/* Session ids: 1..128 of [A-Za-z0-9._-], and not a word the routes use. */
bool request_valid_session_id(const char *id);

/* serve.c: the server, from its command line (parsed by src/cli/serve_cmd.c) and the settings
 * (settings.h): runs until SIGINT or SIGTERM; the exit code (0 stopped, 1 failed, 2 a usage
 * error found at start, such as a non-loopback address without an API key). */
typedef struct serve_options {
    const char *file;
    const char *host; /* --host, else CHIDORI_HOST, else 127.0.0.1 */
    int port;
    const char *db;   /* --db: a postgresql:// URL or a SQLite path; else CHIDORI_DB_URL, CHIDORI_DB_PATH, the default */
    int isolate;      /* --isolate 1, --no-isolate 0, -1 unset */
    bool untrusted, trusted;
} serve_options;
struct settings;
int serve_run(const serve_options *o, const struct settings *s);

#endif
