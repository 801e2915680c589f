/* test_serve_request.c — the server's handling of a request's raw path and method, below
 * libmicrohttpd: http_decode_path (an encoded NUL must not cut a path short) and the router with
 * a method it cannot expect (an empty one looped for ever in method_allowed; found by
 * tests/fuzz/fuzz_serve_request.c). */
#define _GNU_SOURCE
#include "unit.h"
#include "serve/serve.h"
#include "settings/settings.h"
#include "util/buf.h"
#include "serve/store.h"

#include <stdlib.h>

static const char *decode(const char *raw, const char **why)
{
    static char out[256];
    char *path = NULL;
    *why = NULL;
    if (http_decode_path(raw, &path, why) < 0) return NULL;
    snprintf(out, sizeof out, "%s", path);
    free(path);
    return out;
}

TEST(serve_path_decoding_refuses_an_encoded_nul_and_broken_escapes)
{
    const char *why;
    CHECK_STR(decode("/sessions/abc", &why), "/sessions/abc");
    CHECK_STR(decode("/sessions/ab%63", &why), "/sessions/abc");
    CHECK_STR(decode("/sessions/%2Fx%2f", &why), "/sessions//x/");
    CHECK_STR(decode("/sessions/abc%2500", &why), "/sessions/abc%00");
    CHECK_STR(decode("", &why), "");
    CHECK(decode("/sessions/abc%00x", &why) == NULL);
    CHECK_STR(why, "an encoded NUL (%00)");
    CHECK(decode("/health%00", &why) == NULL);
    CHECK(decode("/sessions/abc%zz", &why) == NULL);
    CHECK_STR(why, "a `%` not followed by two hex digits");
    CHECK(decode("/sessions/abc%0", &why) == NULL);
    CHECK(decode("/sessions/abc%", &why) == NULL);
    CHECK(decode("%g0", &why) == NULL);
}

TEST(serve_router_answers_a_method_it_does_not_know)
{
    char *error = NULL;
    store *st = store_open(":memory:", &error);
    CHECK(st != NULL);
    sessions_config sc = {.project_root = "/nonexistent", .entry = "agent.js", .state_dir = "/nonexistent"};
    server srv = {.ss = sessions_new(&sc, st)};
    static const char *const methods[] = {"", "GE", "GET,", "TRACE", "get"};
    for (size_t i = 0; i < sizeof methods / sizeof *methods; i++) {
        http_request req = {.method = methods[i], .path = "/sessions", .body = ""};
        http_reply rep = {0};
        router_handle(&srv, &req, &rep);
        int status = rep.status;
        free(rep.body);
        CHECK(status == 405);
    }
    sessions_free(srv.ss);
    store_close(st);
}

static auth_config browser_auth(const char *allowed_hosts, const char *bound)
{
    auth_config a;
    char *error = NULL;
    char *hosts = allowed_hosts ? xasprintf("CHIDORI_ALLOWED_HOSTS=%s", allowed_hosts) : NULL;
    settings *set = settings_from_environ((char *[]){"CHIDORI_CORS_ORIGINS=http://app.test", hosts, NULL}, &error);
    if (!set || auth_from_settings(&a, set, &error) < 0 || auth_hosts_from_settings(&a, set, bound, &error) < 0) {
        fprintf(stderr, "%s\n", error);
        abort();
    }
    settings_free(set);
    free(hosts);
    return a;
}

TEST(serve_host_allowlist_names_loopback_bound_and_listed_hosts_only)
{
    auth_config a = browser_auth("MyHost.lan, 10.1.2.3,[fd00::1]", "192.0.2.7");
    static const char *const good[] = {NULL, "localhost", "LocalHost:8080", "localhost.", "127.0.0.1", "127.0.0.1:1",
                                       "127.255.0.9:65535", "[::1]", "[::1]:8080", "[::ffff:127.0.0.1]:80",
                                       "myhost.lan", "MYHOST.LAN:9", "10.1.2.3", "[fd00::1]:80", "192.0.2.7:8080",
                                       "localhost:"};
    for (size_t i = 0; i < sizeof good / sizeof *good; i++) CHECK(auth_host_allowed(&a, good[i]));
    char longname[400];
    memset(longname, 'a', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    static const char *const bad[] = {"", "evil.example", "evil.example:8080", "127.0.0.1.evil.example",
                                      "localhost.evil.example", "127.0.0.1:8080:1", "127.0.0.1:123456", "127.0.0.1:x",
                                      "[::2]", "[::1", "::1", "[127.0.0.1]", "[::1]x", "127.1", "0.0.0.0",
                                      "a b", "localhost\t", "localhost/x", "other.lan", "10.1.2.4", "[fd00::2]",
                                      "myhost.lan..", "..", "."};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        bool allowed = auth_host_allowed(&a, bad[i]);
        if (allowed) fprintf(stderr, "allowed: `%s`\n", bad[i]);
        CHECK(!allowed);
    }
    CHECK(!auth_host_allowed(&a, longname));
    auth_clear(&a);
    /* a wildcard --host adds nothing */
    a = browser_auth(NULL, "0.0.0.0");
    CHECK(a.n_hosts == 0 && !auth_host_allowed(&a, "0.0.0.0"));
    auth_clear(&a);
}

TEST(serve_allowed_hosts_setting_is_checked)
{
    static const char *const bad[] = {"http://x/", "x:80", " , ", "a b", "[::1", "*"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        auth_config a;
        char *error = NULL;
        char *kv = xasprintf("CHIDORI_ALLOWED_HOSTS=%s", bad[i]);
        settings *set = settings_from_environ((char *[]){kv, NULL}, &error);
        CHECK(set != NULL);
        CHECK(auth_from_settings(&a, set, &error) == 0);
        CHECK(auth_hosts_from_settings(&a, set, NULL, &error) < 0 && error && strstr(error, "CHIDORI_ALLOWED_HOSTS"));
        free(error);
        auth_clear(&a);
        settings_free(set);
        free(kv);
    }
    /* `*` with a key: any name */
    auth_config a;
    char *error = NULL;
    settings *set = settings_from_environ((char *[]){"CHIDORI_API_KEY=k", "CHIDORI_ALLOWED_HOSTS=*", NULL}, &error);
    CHECK(set && auth_from_settings(&a, set, &error) == 0 && auth_hosts_from_settings(&a, set, NULL, &error) == 0);
    CHECK(auth_host_allowed(&a, "anything.example:1"));
    auth_clear(&a);
    settings_free(set);
}

TEST(serve_origin_check_refuses_other_sites_state_changes)
{
    auth_config a = browser_auth(NULL, NULL);
    CHECK(auth_origin_refusal(&a, NULL, NULL, "127.0.0.1:8080") == NULL);       /* curl, an SDK */
    CHECK(auth_origin_refusal(&a, NULL, "same-origin", "127.0.0.1:8080") == NULL);
    CHECK(auth_origin_refusal(&a, NULL, "none", "127.0.0.1:8080") == NULL);
    CHECK(auth_origin_refusal(&a, "http://127.0.0.1:8080", NULL, "127.0.0.1:8080") == NULL);
    CHECK(auth_origin_refusal(&a, "HTTP://LOCALHOST:8080", NULL, "localhost:8080") == NULL);
    CHECK(auth_origin_refusal(&a, "http://app.test", "cross-site", "127.0.0.1:8080") == NULL); /* CORS */
    CHECK(auth_origin_refusal(&a, "http://evil.example", "cross-site", "127.0.0.1:8080") != NULL);
    CHECK(auth_origin_refusal(&a, "http://localhost:8080", NULL, "127.0.0.1:8080") != NULL);
    CHECK(auth_origin_refusal(&a, "http://127.0.0.1:8081", NULL, "127.0.0.1:8080") != NULL);
    CHECK(auth_origin_refusal(&a, "https://127.0.0.1:8080", NULL, "127.0.0.1:8080") != NULL);
    CHECK(auth_origin_refusal(&a, "null", NULL, "127.0.0.1:8080") != NULL);
    CHECK(auth_origin_refusal(&a, "http://127.0.0.1:8080", NULL, NULL) != NULL);
    CHECK(auth_origin_refusal(&a, NULL, "cross-site", "127.0.0.1:8080") != NULL);
    CHECK(auth_origin_refusal(&a, NULL, "Same-Site", "127.0.0.1:8080") != NULL);
    auth_clear(&a);
}

TEST(serve_router_refuses_the_browser_before_the_route)
{
    char *error = NULL;
    store *st = store_open(":memory:", &error);
    CHECK(st != NULL);
    sessions_config sc = {.project_root = "/nonexistent", .entry = "agent.js", .state_dir = "/nonexistent"};
    server srv = {.ss = sessions_new(&sc, st), .auth = browser_auth(NULL, NULL)};
    static const struct {
        const char *method, *path, *host, *origin, *site, *ctype, *body;
        int want;
    } cases[] = {
        {"GET", "/sessions", "evil.example", NULL, NULL, NULL, "", 421},
        {"GET", "/ui/", "evil.example:80", NULL, NULL, NULL, "", 421},
        {"GET", "/health", "evil.example", NULL, NULL, NULL, "", 200},
        {"GET", "/sessions", "127.0.0.1:1", "http://evil.example", NULL, NULL, "", 200},
        {"POST", "/sessions", "127.0.0.1:1", "http://evil.example", "cross-site", "text/plain", "{}", 403},
        {"POST", "/sessions/x/cancel", "127.0.0.1:1", NULL, "cross-site", NULL, "", 403},
        {"DELETE", "/sessions", "127.0.0.1:1", "http://evil.example", NULL, NULL, "", 403},
        {"POST", "/sessions", "127.0.0.1:1", NULL, NULL, "text/plain", "{}", 415},
        {"POST", "/sessions", "127.0.0.1:1", NULL, NULL, NULL, "{}", 415},
        {"POST", "/sessions", "127.0.0.1:1", NULL, NULL, "application/json-seq", "{}", 415},
        {"POST", "/sessions", "127.0.0.1:1", "http://127.0.0.1:1", NULL, "application/json;charset=utf-8", "[]", 400},
        {"POST", "/sessions/nosuch/cancel", "127.0.0.1:1", NULL, NULL, NULL, "", 404},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        http_request req = {.method = cases[i].method, .path = cases[i].path, .host = cases[i].host,
                            .origin = cases[i].origin, .sec_fetch_site = cases[i].site,
                            .content_type = cases[i].ctype, .body = cases[i].body, .body_len = strlen(cases[i].body)};
        http_reply rep = {0};
        router_handle(&srv, &req, &rep);
        if (rep.status != cases[i].want)
            fprintf(stderr, "%s %s: %d, not %d: %s\n", cases[i].method, cases[i].path, rep.status, cases[i].want,
                    rep.body ? rep.body : "");
        CHECK(rep.status == cases[i].want);
        free(rep.body);
    }
    auth_clear(&srv.auth);
    sessions_free(srv.ss);
    store_close(st);
}
