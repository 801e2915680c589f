/* fuzz_serve_browser.c — the headers `chidori serve` checks against a hostile page, with the
 * rest of a request: the Host value (auth_host_allowed parses it), Origin and Sec-Fetch-Site
 * (auth_origin_refusal), Content-Type (router.c), then the router and handlers as a request would
 * reach them.
 *
 * The input is lines: HOST \n ORIGIN \n SEC-FETCH-SITE \n CONTENT-TYPE \n METHOD \n PATH \n BODY
 * (an empty header line means the header is absent; the body is the rest, NULs and all). The
 * server has no key, CORS origin `http://app.test`, CHIDORI_ALLOWED_HOSTS `myhost.lan,[fd00::1]`,
 * an in-memory store with one completed session `done`, and cannot start a run (503).
 *
 * Properties: no crash or leak; every status is one of the API's table; a Host that is allowed is
 * at most 300 bytes of name characters; a request to a Host that is not allowed is a 421 (but
 * /health); a state-changing request whose Origin is neither the server's own nor the CORS origin,
 * or that says `Sec-Fetch-Site: cross-site` without an Origin, is never answered 2xx, nor one with a
 * body that is not declared JSON.
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
#include <strings.h>

static server srv;

static void setup(void)
{
    char *error = NULL;
    settings *set = settings_from_environ(
        (char *[]){"CHIDORI_CORS_ORIGINS=http://app.test", "CHIDORI_ALLOWED_HOSTS=myhost.lan,[fd00::1]", NULL}, &error);
    if (!set || auth_from_settings(&srv.auth, set, &error) < 0 ||
        auth_hosts_from_settings(&srv.auth, set, "127.0.0.1", &error) < 0)
        abort();
    settings_free(set);
    store *st = store_open(":memory:", &error);
    if (!st) abort();
    session_row r = {0};
    r.id = xstrdup("done");
    memcpy(r.run_id, "00000000-0000-4000-8000-000000000001", 36);
    r.status = xstrdup("completed");
    r.input = json_object();
    r.output = json_string("ok");
    r.approvals = json_array();
    r.seed = 7;
    bool duplicate;
    if (store_insert_session(st, &r, NULL, &duplicate, &error) < 0) abort();
    session_row_clear(&r);
    sessions_config sc = {.project_root = "/nonexistent", .entry = "agent.js", .state_dir = "/nonexistent",
                          .max_running = 0};
    srv.ss = sessions_new(&sc, st);
    size_t total, rerun;
    if (sessions_load(srv.ss, &total, &rerun, &error) < 0 || total != 1) abort();
}

static char *line(const uint8_t **p, const uint8_t *end)
{
    const uint8_t *nl = memchr(*p, '\n', (size_t)(end - *p));
    const uint8_t *stop = nl ? nl : end;
    char *s = xstrndup((const char *)*p, (size_t)(stop - *p));
    *p = nl ? nl + 1 : end;
    if (!*s) {
        free(s);
        return NULL;
    }
    return s;
}

static bool known_status(int s)
{
    static const int codes[] = {200, 201, 204, 302, 400, 401, 403, 404, 405, 409, 413, 415, 421, 503};
    for (size_t i = 0; i < sizeof codes / sizeof *codes; i++)
        if (s == codes[i]) return true;
    return false;
}

static bool state_changing(const char *m)
{
    return !strcmp(m, "POST") || !strcmp(m, "PUT") || !strcmp(m, "PATCH") || !strcmp(m, "DELETE");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!srv.ss) setup();
    const uint8_t *p = data, *end = data + size;
    char *host = line(&p, end), *origin = line(&p, end), *site = line(&p, end), *ctype = line(&p, end);
    char *method = line(&p, end), *path = line(&p, end);
    size_t body_len = (size_t)(end - p);
    char *body = xmalloc(body_len + 1);
    memcpy(body, p, body_len);
    body[body_len] = '\0';
    if (!method) method = xstrdup("GET");
    if (!path) path = xstrdup("/");

    bool host_ok = auth_host_allowed(&srv.auth, host);
    if (host && host_ok && (strlen(host) > 300 || strspn(host, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                                "0123456789.-_:[]%") != strlen(host)))
        abort();

    http_request req = {.method = method, .path = path, .origin = origin, .host = host, .sec_fetch_site = site,
                        .content_type = ctype, .body = body, .body_len = body_len};
    http_reply rep = {0};
    router_handle(&srv, &req, &rep);
    if (rep.wait) abort(); /* nothing can run, so nothing waits */
    if (!known_status(rep.status)) abort();
    if (!host_ok && strcmp(path, "/health") != 0 && rep.status != 421) abort();
    if (rep.status >= 200 && rep.status < 300 && state_changing(method)) {
        bool own = origin && host && !strncasecmp(origin, "http://", 7) && !strcasecmp(origin + 7, host);
        if (origin && !own && strcmp(origin, "http://app.test") != 0) abort();
        if (!origin && site && !strcasecmp(site, "cross-site")) abort();
        if (body_len > 0 && (!ctype || strncasecmp(ctype + strspn(ctype, " \t"), "application/json", 16) != 0)) abort();
    }
    if (rep.stream) sse_free(rep.stream);
    free(rep.body);
    free(rep.session_id);
    free(host);
    free(origin);
    free(site);
    free(ctype);
    free(method);
    free(path);
    free(body);
    return 0;
}
