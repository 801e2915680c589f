/* fuzz_serve_request.c — what `chidori serve` does with the untrusted bytes of a request, past
 * libmicrohttpd: the raw path decoded (http_decode_path), then the router (CORS preflight,
 * /health, the dashboard's files, the bearer key, route and method, the session id) and the
 * handlers with their strict JSON bodies and field checks.
 *
 * The input is the request as lines: METHOD \n RAW-PATH \n AUTHORIZATION \n ORIGIN \n BODY (an
 * empty header line means the header is absent; the body is the rest, NULs and all).
 *
 * The server is real but cannot run anything: CHIDORI_MAX_CONCURRENT_SESSIONS is 0, so every
 * request that would start a run is refused (503) after all of its checks, and the only sessions
 * are settled ones (a completed one with a record, a failed one), which no request can change.
 * Keys `fuzz-key` and `other`; CORS origin `http://localhost:5173`.
 *
 * Properties: no crash or leak; a path that is not refused decodes to no longer than it came and
 * holds no NUL, and one without a `%` is unchanged; every answer is a status of the API's table;
 * every body is a JSON object, with an `error` string exactly when the status is an error; nothing
 * past the key check answers 2xx without a right key; nothing is created (no 201) and the
 * in-memory database never fails (no 500).
 */
#define _GNU_SOURCE
#include "serve/serve.h"
#include "serve/sse.h"
#include "serve/store.h"
#include "settings/settings.h"
#include "util/buf.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static server srv;

static void setup(void)
{
    char *error = NULL;
    settings *set = settings_from_environ(
        (char *[]){"CHIDORI_API_KEY=fuzz-key,other", "CHIDORI_CORS_ORIGINS=http://localhost:5173", NULL}, &error);
    if (!set || auth_from_settings(&srv.auth, set, &error) < 0) abort();
    settings_free(set);
    store *st = store_open(":memory:", &error);
    if (!st) abort();
    static const char *const rows[][3] = {
        {"done", "completed", NULL},
        {"broke", "failed", "failed on purpose"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        session_row r = {0};
        r.id = xstrdup(rows[i][0]);
        memcpy(r.run_id, "00000000-0000-4000-8000-00000000000", 35);
        r.run_id[35] = (char)('0' + i);
        r.status = xstrdup(rows[i][1]);
        r.input = json_object();
        r.output = rows[i][2] ? NULL : json_string("ok");
        r.error = rows[i][2] ? xstrdup(rows[i][2]) : NULL;
        r.approvals = json_array();
        r.seed = 7;
        r.call_count = 1;
        bool duplicate;
        if (store_insert_session(st, &r, NULL, &duplicate, &error) < 0) abort();
        const char *rec = "{\"seq\":1,\"function\":\"log\",\"args\":{\"message\":\"hi\"},\"result\":null}";
        if (store_append_record(st, r.id, 1, 1, rec, &error) < 0) abort();
        session_row_clear(&r);
    }
    sessions_config sc = {.project_root = "/nonexistent", .entry = "agent.js", .state_dir = "/nonexistent",
                          .max_running = 0};
    srv.ss = sessions_new(&sc, st);
    size_t total, rerun;
    if (sessions_load(srv.ss, &total, &rerun, &error) < 0 || total != 2 || rerun != 0) abort();
}

/* The next line of the input as a NUL-terminated copy (NULL when it is empty: no header). */
static char *line(const uint8_t **p, const uint8_t *end, bool keep_empty)
{
    const uint8_t *nl = memchr(*p, '\n', (size_t)(end - *p));
    const uint8_t *stop = nl ? nl : end;
    char *s = xstrndup((const char *)*p, (size_t)(stop - *p));
    *p = nl ? nl + 1 : end;
    if (!*s && !keep_empty) {
        free(s);
        return NULL;
    }
    return s;
}

static bool known_status(int s)
{
    static const int codes[] = {200, 201, 204, 302, 400, 401, 403, 404, 405, 409, 413, 415, 503};
    for (size_t i = 0; i < sizeof codes / sizeof *codes; i++)
        if (s == codes[i]) return true;
    return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!srv.ss) setup();
    const uint8_t *p = data, *end = data + size;
    char *method = line(&p, end, true);
    char *raw = line(&p, end, true);
    char *authorization = line(&p, end, false);
    char *origin = line(&p, end, false);
    size_t body_len = (size_t)(end - p);
    char *body = xmalloc(body_len + 1);
    memcpy(body, p, body_len);
    body[body_len] = '\0';

    char *path = NULL;
    const char *why = NULL;
    if (http_decode_path(raw, &path, &why) < 0) {
        if (!why || path) abort();
        if (!strchr(raw, '%')) abort(); /* only an escape can be refused */
    } else {
        if (why || !path || strlen(path) > strlen(raw)) abort();
        if (!strchr(raw, '%') && strcmp(path, raw) != 0) abort();

        /* the body is declared JSON, so that it reaches the handlers (fuzz_serve_browser varies it) */
        http_request req = {.method = method, .path = path, .authorization = authorization, .origin = origin,
                            .content_type = "application/json", .body = body, .body_len = body_len};
        http_reply rep = {0};
        router_handle(&srv, &req, &rep);
        if (!known_status(rep.status)) abort();
        if (rep.stream) { /* an event stream of a settled session; never read here */
            if (rep.status != 200 || rep.body) abort();
            sse_free(rep.stream);
        } else if (rep.body) {
            json_error jerr;
            json_t *v = json_parse(rep.body, strlen(rep.body), NULL, &jerr);
            if (!v || !json_is_object(v)) abort();
            const char *error = json_string_value(json_object_get(v, "error"));
            if ((rep.status >= 400) != (error != NULL)) abort();
            json_free(v);
        } else if (!rep.static_body && rep.status != 204 && !(rep.preflight && rep.status == 200)) {
            abort(); /* every answer but a preflight (200, the original's status) has a body */
        }
        bool open = !strcmp(path, "/health") || !strncmp(path, "/ui", 3) || rep.preflight;
        if (rep.status < 300 && !open && !auth_check(&srv.auth, authorization)) abort();
        free(rep.body);
        free(rep.session_id);
    }
    free(path);
    free(method);
    free(raw);
    free(authorization);
    free(origin);
    free(body);
    return 0;
}
