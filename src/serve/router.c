/* router.c — method + path → handler (see serve.h), with the browser checks, CORS and
 * authentication in front. Trusts nothing of a request.
 *
 * Order: the Host header must name this server (421 otherwise; auth.h), except for /health; a
 * CORS preflight is answered (browsers send it without credentials); GET /health; a
 * state-changing request (POST, PUT, PATCH, DELETE) from another site's page is refused (403,
 * key or not); GET / redirects to the dashboard (302 to /ui); the dashboard's static files under
 * /ui (ui.c; open to all); the bearer key; the
 * route: an unknown path is a 404, a known path with the wrong method a 405 with Allow; a body
 * that is not declared JSON a 415; an unknown session a 404 (a session the store cannot read
 * back, a 500). The session of a /sessions/{id}/... route is held from the lookup to the end of
 * the handler, then released (or handed to the handler's later work, api_resume/api_approve).
 * Every refusal of those checks (421, 403, 401, 415) closes its connection (`Connection: close`),
 * so a page or a process that is refused cannot keep the connection for later requests. */
#define _GNU_SOURCE
#include "serve/serve.h"
#include "serve/ui.h"
#include "util/buf.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef enum route_id {
    R_NONE,
    R_HEALTH,
    R_SESSIONS,
    R_SESSIONS_STREAM,
    R_SESSION,
    R_SESSION_STREAM,
    R_CHECKPOINT,
    R_SNAPSHOT,
    R_RESUME,
    R_APPROVE,
    R_CANCEL,
    R_REPLAY,
    R_PRICING,
    R_SIGNAL,
} route_id;

typedef struct route {
    route_id id;
    const char *allow; /* the methods it answers */
} route;

static const struct {
    const char *action;
    route r;
} ACTIONS[] = {
    {"stream", {R_SESSION_STREAM, "GET"}},   {"checkpoint", {R_CHECKPOINT, "GET"}},
    {"resume", {R_RESUME, "POST"}},          {"approve", {R_APPROVE, "POST"}},
    {"cancel", {R_CANCEL, "POST"}},          {"replay", {R_REPLAY, "POST"}},
    {"snapshot", {R_SNAPSHOT, "GET"}},       {"signal", {R_SIGNAL, "POST"}},
};

/* The route of a path; *id gets the session id part (a copy) for /sessions/{id}/... */
static route match(const char *path, char **id)
{
    *id = NULL;
    if (!strcmp(path, "/health")) return (route){R_HEALTH, "GET"};
    if (!strcmp(path, "/sessions")) return (route){R_SESSIONS, "GET, POST"};
    if (!strcmp(path, "/sessions/stream")) return (route){R_SESSIONS_STREAM, "POST"};
    if (!strcmp(path, "/pricing")) return (route){R_PRICING, "GET"};
    if (strncmp(path, "/sessions/", 10) != 0) return (route){R_NONE, NULL};
    const char *rest = path + 10;
    const char *slash = strchr(rest, '/');
    char *sid = slash ? xstrndup(rest, (size_t)(slash - rest)) : xstrdup(rest);
    if (!request_valid_session_id(sid)) {
        free(sid);
        return (route){R_NONE, NULL};
    }
    if (!slash) {
        *id = sid;
        return (route){R_SESSION, "GET"};
    }
    for (size_t i = 0; i < sizeof ACTIONS / sizeof *ACTIONS; i++)
        if (!strcmp(slash + 1, ACTIONS[i].action)) {
            *id = sid;
            return ACTIONS[i].r;
        }
    free(sid);
    return (route){R_NONE, NULL};
}

static bool method_allowed(const char *allow, const char *method)
{
    size_t n = strlen(method);
    if (n == 0) return false; /* strstr would find "" at every position, for ever */
    for (const char *p = allow; (p = strstr(p, method)); p += n)
        if ((p == allow || p[-1] == ' ') && (p[n] == ',' || p[n] == '\0')) return true;
    return false;
}

static bool state_changing(const char *method)
{
    return !strcmp(method, "POST") || !strcmp(method, "PUT") || !strcmp(method, "PATCH") || !strcmp(method, "DELETE");
}

/* `application/json`, any case, with or without parameters (`; charset=utf-8`). */
static bool declared_json(const char *content_type)
{
    if (!content_type) return false;
    while (*content_type == ' ' || *content_type == '\t') content_type++;
    size_t n = strlen("application/json");
    if (strncasecmp(content_type, "application/json", n) != 0) return false;
    char next = content_type[n];
    return next == '\0' || next == ';' || next == ' ' || next == '\t';
}

void router_handle(void *ctx, const http_request *req, http_reply *rep)
{
    server *srv = ctx;
    char *id = NULL;
    route r = match(req->path, &id);
    if (r.id != R_HEALTH && !auth_host_allowed(&srv->auth, req->host)) {
        /* a name of another site resolved to this server (DNS rebinding), or a typo */
        reply_error(rep, 421,
                    "this server does not answer to the host name `%.200s`: use localhost or 127.0.0.1, or "
                    "add the name to CHIDORI_ALLOWED_HOSTS",
                    req->host);
        rep->close = true;
        free(id);
        return;
    }
    if (auth_origin_allowed(&srv->auth, req->origin)) rep->cors_origin = req->origin;

    if (!strcmp(req->method, "OPTIONS")) {
        if (rep->cors_origin) {
            rep->status = 200; /* the original's status for a preflight it allows */
            rep->preflight = true;
        } else if (auth_cors_enabled(&srv->auth)) {
            reply_error(rep, 403, "CORS: origin `%.200s` is not allowed", req->origin ? req->origin : "");
            rep->close = true;
        } else {
            rep->allow = r.allow ? r.allow : NULL;
            reply_error(rep, r.id == R_NONE ? 404 : 405, "%s", r.id == R_NONE ? "no such route" : "method not allowed");
        }
        free(id);
        return;
    }
    if (r.id == R_HEALTH && !strcmp(req->method, "GET")) {
        json_t *o = json_object();
        json_object_set(o, "status", json_string("ok"));
        reply_json(rep, 200, o);
        return;
    }
    const char *refusal = NULL;
    if (state_changing(req->method) &&
        (refusal = auth_origin_refusal(&srv->auth, req->origin, req->sec_fetch_site, req->host))) {
        reply_error(rep, 403,
                    "cross-site request refused: %s (a page of another site may not change sessions; list its "
                    "origin in CHIDORI_CORS_ORIGINS to let it)",
                    refusal);
        rep->close = true;
        free(id);
        return;
    }
    if (!strcmp(req->path, "/") && (!strcmp(req->method, "GET") || !strcmp(req->method, "HEAD"))) {
        static const char *const to_ui[] = {"Location", "/ui", NULL}; /* the root is the dashboard */
        rep->headers = to_ui;
        json_t *o = json_object();
        json_object_set(o, "location", json_string("/ui"));
        reply_json(rep, 302, o);
        free(id);
        return;
    }
    if (ui_path(req->path)) { /* the dashboard's files are public; the API they call is not */
        ui_reply(req->method, req->path, rep);
        free(id);
        return;
    }
    if (!auth_check(&srv->auth, req->authorization)) {
        rep->www_authenticate = true;
        reply_error(rep, 401, "missing or invalid bearer token");
        rep->close = true;
        free(id);
        return;
    }
    if (r.id == R_NONE) {
        reply_error(rep, 404, "no route for %.16s %.200s", req->method, req->path);
        return;
    }
    if (!method_allowed(r.allow, req->method)) {
        rep->allow = r.allow;
        reply_error(rep, 405, "%.16s is not allowed on %.200s (allowed: %s)", req->method, req->path, r.allow);
        free(id);
        return;
    }
    if (req->body_len > 0 && !declared_json(req->content_type)) {
        reply_error(rep, 415, "the request body must be JSON, sent with `Content-Type: application/json` (got %s%.100s%s)",
                    req->content_type ? "`" : "", req->content_type ? req->content_type : "none",
                    req->content_type ? "`" : "");
        rep->close = true;
        free(id);
        return;
    }
    session *s = NULL; /* held from here to the end of the handler (a stream takes its own) */
    if (id) {
        char *error = NULL;
        s = sessions_find(srv->ss, id, &error);
        if (!s) {
            if (error) reply_error(rep, 500, "%s", error);
            else reply_error(rep, 404, "session `%s` not found", id);
            free(error);
            free(id);
            return;
        }
        free(id);
    }
    bool kept = false; /* s handed to the handler's later work */
    switch (r.id) {
    case R_HEALTH: break; /* answered above */
    case R_SESSIONS:
        if (!strcmp(req->method, "GET")) api_list(srv, rep);
        else api_create(srv, req, rep, false);
        break;
    case R_SESSIONS_STREAM: api_create(srv, req, rep, true); break;
    case R_SESSION: api_get(srv, s, rep); break;
    case R_SESSION_STREAM: api_stream(srv, s, rep); break;
    case R_CHECKPOINT: api_checkpoint(srv, s, rep); break;
    case R_SNAPSHOT: api_snapshot(srv, s, rep); break;
    case R_RESUME: kept = api_resume(srv, s, req, rep); break;
    case R_APPROVE: kept = api_approve(srv, s, req, rep); break;
    case R_CANCEL: api_cancel(srv, s, req, rep); break;
    case R_REPLAY: api_replay(srv, s, req, rep); break;
    case R_PRICING: api_pricing(srv, rep); break;
    case R_SIGNAL: kept = api_signal(srv, s, req, rep); break;
    case R_NONE: break;
    }
    if (!kept) sessions_release(srv->ss, s);
}
