/* router.c — method + path → handler (see serve.h), with CORS and authentication in front.
 *
 * Order: a CORS preflight is answered first (browsers send it without credentials), then
 * GET /health and the dashboard's static files under /ui (ui.c; open to all), then the bearer
 * key, then the route: an unknown path is a 404, a known path with the wrong method a 405 with
 * Allow, an unknown session a 404 (a session the store cannot read back, a 500). The session of a
 * /sessions/{id}/... route is held from the lookup to the end of the handler, then released. */
#define _GNU_SOURCE
#include "serve/serve.h"
#include "serve/ui.h"
#include "util/buf.h"

#include <stdlib.h>
#include <string.h>

typedef enum route_id {
    R_NONE,
    R_HEALTH,
    R_SESSIONS,
    R_SESSIONS_STREAM,
    R_SESSION,
    R_SESSION_STREAM,
    R_CHECKPOINT,
    R_RESUME,
    R_APPROVE,
    R_CANCEL,
    R_REPLAY,
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
};

/* The route of a path; *id gets the session id part (a copy) for /sessions/{id}/... */
static route match(const char *path, char **id)
{
    *id = NULL;
    if (!strcmp(path, "/health")) return (route){R_HEALTH, "GET"};
    if (!strcmp(path, "/sessions")) return (route){R_SESSIONS, "GET, POST"};
    if (!strcmp(path, "/sessions/stream")) return (route){R_SESSIONS_STREAM, "POST"};
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

void router_handle(void *ctx, const http_request *req, http_reply *rep)
{
    server *srv = ctx;
    if (auth_origin_allowed(&srv->auth, req->origin)) rep->cors_origin = req->origin;
    char *id = NULL;
    route r = match(req->path, &id);

    if (!strcmp(req->method, "OPTIONS")) {
        if (rep->cors_origin) {
            rep->status = 204;
            rep->preflight = true;
        } else if (auth_cors_enabled(&srv->auth)) {
            reply_error(rep, 403, "CORS: origin `%.200s` is not allowed", req->origin ? req->origin : "");
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
    if (ui_path(req->path)) { /* the dashboard's files are public; the API they call is not */
        ui_reply(req->method, req->path, rep);
        free(id);
        return;
    }
    if (!auth_check(&srv->auth, req->authorization)) {
        rep->www_authenticate = true;
        reply_error(rep, 401, "missing or invalid bearer token");
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
    case R_RESUME: api_resume(srv, s, req, rep); break;
    case R_APPROVE: api_approve(srv, s, req, rep); break;
    case R_CANCEL: api_cancel(srv, s, req, rep); break;
    case R_REPLAY: api_replay(srv, s, req, rep); break;
    case R_NONE: break;
    }
    sessions_release(srv->ss, s);
}
