/* api.c — the route handlers: check the request, call the session operation, answer.
 *
 * Trusts nothing of a request (request.c parses bodies strictly; each field's type is checked
 * here); trusts the session layer. Every error is {"error": "..."} with the status that says what
 * went wrong: 400 a bad request, 404 no such session, 409 not in a state for that, 503 busy or
 * stopping (with Retry-After), 500 the store failed.
 *
 * No handler blocks (the HTTP threads are shared by every connection, see httpd.h): an answer that
 * waits for a run to settle is handed back as a reply that waits (reply_after_run), told by the
 * run's thread when it has settled.
 */
#define _GNU_SOURCE
#include "serve/serve.h"
#include "serve/replay_from.h"
#include "serve/sse.h"
#include "util/buf.h"

#include <stdlib.h>
#include <string.h>

static void reply_failure(server *srv, http_reply *rep, ss_result r, char *error)
{
    int status = r == SS_NOT_FOUND ? 404 : r == SS_CONFLICT ? 409 : r == SS_BUSY || r == SS_STOPPING ? 503 : 500;
    if (status == 503) rep->retry_after = 1;
    if (r == SS_BUSY) {
        /* as the original answers a busy server: the wait for a slot it allowed (CHIDORI_ACQUIRE_TIMEOUT_MS) */
        json_t *o = json_object();
        json_object_set(o, "error", json_string(error ? error : "server busy"));
        json_object_set(o, "acquire_timeout_ms", json_number((double)sessions_config_of(srv->ss)->acquire_timeout_ms));
        reply_json(rep, status, o);
    } else {
        reply_error(rep, status, "%s", error ? error : "the operation failed");
    }
    free(error);
}

/* An optional boolean field (default when absent). false with a 400 in rep when it is not one. */
static bool bool_field(const json_t *body, const char *name, bool def, bool *out, http_reply *rep)
{
    const json_t *v = json_object_get(body, name);
    *out = def;
    if (!v) return true;
    if (v->type != JSON_TRUE && v->type != JSON_FALSE) {
        reply_error(rep, 400, "`%s` must be true or false", name);
        return false;
    }
    *out = v->type == JSON_TRUE;
    return true;
}

/* A string field given under one of two names (snake_case, camelCase). NULL when absent;
 * false with a 400 when it is not a string, has a NUL, or the two names disagree. */
static bool alias_string(const json_t *body, const char *name, const char *alias, const char **out, http_reply *rep)
{
    const json_t *a = json_object_get(body, name), *b = json_object_get(body, alias);
    *out = NULL;
    for (int i = 0; i < 2; i++) {
        const json_t *v = i ? b : a;
        if (!v || v->type == JSON_NULL) continue;
        if (!json_is_string(v) || strlen(v->u.string.bytes) != v->u.string.len) {
            reply_error(rep, 400, "`%s` must be a string", i ? alias : name);
            return false;
        }
        if (*out && strcmp(*out, v->u.string.bytes) != 0) {
            reply_error(rep, 400, "`%s` and `%s` disagree", name, alias);
            return false;
        }
        *out = v->u.string.bytes;
    }
    return true;
}

static void reply_view(server *srv, session *s, int status, http_reply *rep)
{
    reply_json(rep, status, sessions_view(srv->ss, s));
}

/* Answer with the session's events as a stream. */
static void reply_stream(server *srv, session *s, http_reply *rep)
{
    session_follower f;
    char *error = NULL;
    if (sessions_follow(srv->ss, s, &f, &error) < 0) {
        reply_failure(srv, rep, SS_ERROR, error);
        return;
    }
    rep->status = 200;
    rep->stream = sse_new(srv->ss, &f);
    json_t *v = sessions_view(srv->ss, s);
    rep->session_id = xstrdup(json_string_value(json_object_get(v, "id")));
    json_free(v);
}

typedef struct run_wait {
    server *srv;
    session *s; /* a reference of its own */
    int status;
    bool stopping_is_503;
    bool refusable; /* a resume or an approval: one the run undid is a 409 */
    session_waiter waiter;
} run_wait;

/* A reply that waits (http_reply.wait): for the run to settle, then the view. */
static bool wait_for_run(void *arg, void (*done)(void *), void *done_arg)
{
    run_wait *w = arg;
    w->waiter = (session_waiter){done, done_arg, NULL};
    return sessions_notify_settled(w->srv->ss, w->s, &w->waiter);
}

static void reply_after_wait(void *arg, http_reply *rep)
{
    run_wait *w = arg;
    if (w->stopping_is_503 && sessions_stopping(w->srv->ss)) {
        rep->retry_after = 1;
        reply_error(rep, 503, "the server is shutting down; the session will continue when it is back");
    } else if (w->status == 201 && sessions_input_invalid(w->srv->ss, w->s)) {
        /* a new session whose input the agent's inputSchema rejected: 400, the stored session too */
        json_t *view = sessions_view(w->srv->ss, w->s);
        json_t *body = json_object();
        json_object_set(body, "error", json_copy(json_object_get(view, "error")));
        json_object_set(body, "session", view);
        reply_json(rep, 400, body);
    } else {
        json_t *v = sessions_view(w->srv->ss, w->s);
        const char *status = json_string_value(json_object_get(v, "status"));
        const char *error = json_string_value(json_object_get(v, "error"));
        if (w->refusable && error && status && (!strcmp(status, "paused") || !strcmp(status, "awaitingapproval"))) {
            /* the resume (approval) diverged before anything ran and was undone: the session waits as
             * it did (sessions.c, refused_resume) */
            reply_error(rep, 409, "%s", error);
            json_free(v);
        } else {
            reply_json(rep, w->status, v);
        }
    }
    sessions_release(w->srv->ss, w->s);
    free(w);
}

/* After an operation that started a run: the view once the run has settled (wait; a server that
 * stops meanwhile answers 503 when stopping_is_503), or at once. Takes the reference to s over. */
static void reply_after_run(server *srv, session *s, bool wait, int status, bool stopping_is_503, http_reply *rep)
{
    if (!wait) {
        reply_view(srv, s, status, rep);
        sessions_release(srv->ss, s);
        return;
    }
    run_wait *w = xmalloc(sizeof *w);
    *w = (run_wait){srv, s, status, stopping_is_503, status == 200, {0}};
    rep->wait = wait_for_run;
    rep->later = reply_after_wait;
    rep->later_arg = w;
}

/* For the handlers in other files (api_signal.c): a resume's reply, and a failure's. */
void api_reply_after_run(server *srv, session *s, bool wait, http_reply *rep)
{
    reply_after_run(srv, s, wait, 200, true, rep);
}

void api_reply_failure(server *srv, http_reply *rep, ss_result r, char *error) { reply_failure(srv, rep, r, error); }

/* The original chidori's fields of POST /sessions (docs/http-api.md): `replay_from` (checked by the
 * call-log loader: 422 when it does not load), `agent` (a bare file name; this server runs one agent,
 * so it may name only that one), `attempt_number` (a non-negative integer, accepted and not used).
 * A stream ignores replay_from and agent, as the original does. false with the reply filled. */
static bool api_compat_create_fields(server *srv, const json_t *body, bool stream, const json_t **replay_from,
                                     http_reply *rep)
{
    *replay_from = NULL;
    for (int i = 0; i < 2; i++) {
        const json_t *n = json_object_get(body, i ? "attemptNumber" : "attempt_number");
        double d = n ? json_number_value(n) : 0;
        if (n && n->type != JSON_NULL && (n->type != JSON_NUMBER || d < 0 || d != (double)(uint64_t)d)) {
            reply_error(rep, 400, "`%s` must be a non-negative integer", i ? "attemptNumber" : "attempt_number");
            return false;
        }
    }
    if (stream) return true;
    const json_t *agent = json_object_get(body, "agent");
    if (agent && agent->type != JSON_NULL) {
        const sessions_config *cfg = sessions_config_of(srv->ss);
        const char *name = json_string_value(agent);
        const char *slash = strrchr(cfg->entry, '/');
        const char *ours = slash ? slash + 1 : cfg->entry;
        if (!name || strlen(name) != agent->u.string.len || !*name || strchr(name, '/') || strchr(name, '\\') ||
            !strcmp(name, ".") || !strcmp(name, "..")) {
            reply_error(rep, 400, "`agent` must be a bare file name, such as `%s`", ours);
            return false;
        }
        if (strcmp(name, ours) != 0) {
            reply_error(rep, 400, "this server runs one agent, `%s`; `agent` may name only it (start a server for `%.128s`)",
                        ours, name);
            return false;
        }
    }
    const json_t *given = json_object_get(body, "replay_from");
    if (!given || given->type == JSON_NULL) return true;
    char *error = NULL;
    if (replay_from_check(given, &sessions_config_of(srv->ss)->log_caps, &error) < 0) {
        reply_error(rep, 422, "%s", error);
        free(error);
        return false;
    }
    *replay_from = given;
    return true;
}

void api_create(server *srv, const http_request *req, http_reply *rep, bool stream)
{
    static const char *const keys[] = {"input", "policy_profile", "policyProfile", "session_id", "sessionId", "wait",
                                       "replay_from", "agent", "attempt_number", "attemptNumber", NULL};
    json_t *body = request_object(req, keys, rep);
    if (!body) return;
    const json_t *input = json_object_get(body, "input");
    const char *profile = NULL, *id = NULL;
    bool wait = true;
    json_t *empty = NULL;
    if (input && !json_is_object(input)) {
        reply_error(rep, 400, "`input` must be a JSON object");
        goto out;
    }
    if (!input) input = empty = json_object();
    if (!alias_string(body, "policy_profile", "policyProfile", &profile, rep) ||
        !alias_string(body, "session_id", "sessionId", &id, rep) || !bool_field(body, "wait", true, &wait, rep))
        goto out;
    if (profile && !sessions_profile_known(profile)) {
        reply_error(rep, 400, "unknown policy_profile `%.64s` (expected permissive, untrusted or supervised)", profile);
        goto out;
    }
    if (id && !request_valid_session_id(id)) {
        reply_error(rep, 400, "`session_id` must be 1 to 128 letters, digits, `.`, `_` or `-`");
        goto out;
    }
    const json_t *replay_from = NULL;
    if (!api_compat_create_fields(srv, body, stream, &replay_from, rep)) goto out;
    session *s = NULL;
    char *error = NULL;
    json_t *created = NULL; /* the view as created: a wait:false reply says `running` even if the run already ended */
    /* wait:false at the cap: stored `queued`, for the first node with room (docs/scaling.md) */
    ss_result r = sessions_create_queued(srv->ss, input, profile, id, req->traceparent, replay_from, !wait && !stream,
                                         &s, !wait && !stream ? &created : NULL, &error);
    if (r != SS_OK) {
        reply_failure(srv, rep, r, error);
        goto out;
    }
    if (stream) {
        reply_stream(srv, s, rep);
        sessions_release(srv->ss, s);
    } else if (created) {
        reply_json(rep, 201, created);
        sessions_release(srv->ss, s);
    } else {
        reply_after_run(srv, s, wait, 201, false, rep);
    }
out:
    json_free(empty);
    json_free(body);
}

void api_list(server *srv, http_reply *rep)
{
    char *error = NULL;
    json_t *list = sessions_list(srv->ss, &error);
    if (!list) reply_failure(srv, rep, SS_ERROR, error);
    else reply_json(rep, 200, list);
}
void api_get(server *srv, session *s, http_reply *rep) { reply_view(srv, s, 200, rep); }
void api_stream(server *srv, session *s, http_reply *rep) { reply_stream(srv, s, rep); }

void api_checkpoint(server *srv, session *s, http_reply *rep)
{
    char *error = NULL;
    json_t *cp = sessions_checkpoint(srv->ss, s, &error);
    if (!cp) reply_failure(srv, rep, SS_ERROR, error);
    else reply_json(rep, 200, cp);
}

bool api_resume(server *srv, session *s, const http_request *req, http_reply *rep)
{
    static const char *const keys[] = {"response", "wait", "allow_source_change", NULL};
    json_t *body = request_object(req, keys, rep);
    if (!body) return false;
    const json_t *response = json_object_get(body, "response");
    bool wait, allow_change, kept = false;
    if (!json_is_string(response) || strlen(response->u.string.bytes) != response->u.string.len) {
        reply_error(rep, 400, "`response` must be a string (without NUL characters)");
    } else if (bool_field(body, "wait", true, &wait, rep) &&
               bool_field(body, "allow_source_change", false, &allow_change, rep)) {
        char *error = NULL;
        ss_result r = sessions_resume(srv->ss, s, response->u.string.bytes, allow_change, &error);
        if (r != SS_OK) reply_failure(srv, rep, r, error);
        else reply_after_run(srv, s, wait, 200, true, rep), kept = true;
    }
    json_free(body);
    return kept;
}

bool api_approve(server *srv, session *s, const http_request *req, http_reply *rep)
{
    static const char *const keys[] = {"decision", "wait", "allow_source_change", NULL};
    json_t *body = request_object(req, keys, rep); /* an empty body is {}: an approval */
    if (!body) return false;
    const json_t *given = json_object_get(body, "decision");
    const char *decision = given ? json_string_value(given) : "allow";
    bool wait, allow_change, kept = false;
    if (!decision || (strcmp(decision, "allow") != 0 && strcmp(decision, "deny") != 0)) {
        reply_error(rep, 400, "`decision` must be \"allow\" or \"deny\" (or left out, which allows)");
    } else if (bool_field(body, "wait", true, &wait, rep) &&
               bool_field(body, "allow_source_change", false, &allow_change, rep)) {
        bool allow = !strcmp(decision, "allow");
        char *error = NULL;
        ss_result r = sessions_approve(srv->ss, s, allow, allow_change, &error);
        if (r != SS_OK) reply_failure(srv, rep, r, error);
        else if (allow) reply_after_run(srv, s, wait, 200, true, rep), kept = true;
        else reply_view(srv, s, 200, rep);
    }
    json_free(body);
    return kept;
}

void api_cancel(server *srv, session *s, const http_request *req, http_reply *rep)
{
    json_t *body = request_object(req, NULL, rep);
    if (!body) return;
    json_free(body);
    char *error = NULL;
    ss_result r = sessions_cancel(srv->ss, s, &error);
    if (r != SS_OK) reply_failure(srv, rep, r, error);
    else reply_view(srv, s, 200, rep);
}

void api_replay(server *srv, session *s, const http_request *req, http_reply *rep)
{
    static const char *const keys[] = {"wait", NULL};
    json_t *body = request_object(req, keys, rep);
    if (!body) return;
    bool wait;
    if (bool_field(body, "wait", true, &wait, rep)) {
        session *copy = NULL;
        char *error = NULL;
        ss_result r = sessions_replay(srv->ss, s, &copy, &error);
        if (r != SS_OK) reply_failure(srv, rep, r, error);
        else reply_after_run(srv, copy, wait, 201, true, rep); /* takes copy's reference over */
    }
    json_free(body);
}

/* GET /pricing: the price table the server was started with (CHIDORI_PRICES, CHIDORI_PRICING), for
 * the dashboard's costs: {"given": bool, "prices": [{model, match, input_per_mtok, ...}]}. */
void api_pricing(server *srv, http_reply *rep)
{
    json_t *o = json_object();
    json_object_set(o, "given", json_bool(srv->prices.given));
    json_object_set(o, "prices", prices_json(&srv->prices));
    reply_json(rep, 200, o);
}
