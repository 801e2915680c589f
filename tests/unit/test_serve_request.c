/* test_serve_request.c — the server's handling of a request's raw path and method, below
 * libmicrohttpd: http_decode_path (an encoded NUL must not cut a path short) and the router with
 * a method it cannot expect (an empty one looped for ever in method_allowed; found by
 * tests/fuzz/fuzz_serve_request.c). */
#define _GNU_SOURCE
#include "unit.h"
#include "serve/serve.h"
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
