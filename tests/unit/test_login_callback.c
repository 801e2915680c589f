/* test_login_callback.c — the untrusted half of `chidori model-login` (src/cli/login_callback.c):
 * the request line of what reaches the callback port, the one-time path, query parameters, and the
 * PKCE values (RFC 7636's own example for the challenge). */
#include "cli/login_callback.h"
#include "unit.h"

#include <stdlib.h>

static login_parse target_of(const char *req, char **t) { return login_request_target(req, strlen(req), t); }

TEST(login_request_line_gives_the_target)
{
    char *t = NULL;
    CHECK(target_of("GET /callback/abc?code=x HTTP/1.1\r\nHost: localhost\r\n\r\n", &t) == LOGIN_TARGET);
    CHECK_STR(t, "/callback/abc?code=x");
    free(t);
    CHECK(target_of("GET / HTTP/1.0\n", &t) == LOGIN_TARGET);
    CHECK_STR(t, "/");
    free(t);
    /* not yet a whole line: more is read */
    CHECK(target_of("GET /callback/abc?co", &t) == LOGIN_MORE && t == NULL);
    CHECK(target_of("GE", &t) == LOGIN_MORE);
    CHECK(target_of("", &t) == LOGIN_MORE);
    /* what can never be a GET request line */
    const char *bad[] = {"POST /callback/abc HTTP/1.1\r\n", "get /x HTTP/1.1\r\n", "GET  /x HTTP/1.1\r\n",
                         "GET x HTTP/1.1\r\n", "GET /x HTTP/2.0\r\n", "GET /x HTTP/1.1 extra\r\n",
                         "GET /a\tb HTTP/1.1\r\n", "GET /x\r\n", "\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03", "GET /x\x7f HTTP/1.1\r\n",
                         "GET /x HTTP/1.1x\r\n"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK(target_of(bad[i], &t) == LOGIN_BAD);
        CHECK(t == NULL);
    }
    /* a NUL inside the target */
    CHECK(login_request_target("GET /a\0b HTTP/1.1\r\n", 19, &t) == LOGIN_BAD);
    /* a line that never ends is refused at the cap, not read on forever */
    char *big = malloc(LOGIN_REQUEST_MAX + 10);
    memcpy(big, "GET /", 5);
    memset(big + 5, 'a', LOGIN_REQUEST_MAX + 5);
    CHECK(login_request_target(big, LOGIN_REQUEST_MAX - 1, &t) == LOGIN_MORE);
    CHECK(login_request_target(big, LOGIN_REQUEST_MAX, &t) == LOGIN_BAD);
    free(big);
}

TEST(login_only_the_one_time_path_is_the_callback)
{
    const char *state = "Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFi";
    CHECK(login_path_is("/callback/Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFi?code=1", "/callback/", state));
    CHECK(login_path_is("/callback/Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFi/?code=1", "/callback/", state));
    CHECK(login_path_is("/callback/Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFi", "/callback/", state));
    CHECK(!login_path_is("/callback/Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFj?code=1", "/callback/", state));
    CHECK(!login_path_is("/callback/Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGF?code=1", "/callback/", state));
    CHECK(!login_path_is("/callback/Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiX", "/callback/", state));
    CHECK(!login_path_is("/callback/?code=1", "/callback/", state));
    CHECK(!login_path_is("/callback?code=1", "/callback/", state));
    CHECK(!login_path_is("/?code=1", "/callback/", state));
    CHECK(!login_path_is("/x/callback/Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFi", "/callback/", state));
}

TEST(login_query_parameters_are_decoded_and_checked)
{
    char *v = login_query_param("/cb/s?code=abc-123&state=x", "code");
    CHECK_STR(v, "abc-123");
    free(v);
    v = login_query_param("/cb/s?x=1&error=access%5Fdenied+now", "error");
    CHECK_STR(v, "access_denied now");
    free(v);
    v = login_query_param("/cb/s?codex=1&code=2", "code"); /* the name whole, not a prefix */
    CHECK_STR(v, "2");
    free(v);
    v = login_query_param("/cb/s?code=", "code");
    CHECK_STR(v, "");
    free(v);
    CHECK(login_query_param("/cb/s#code=1", "code") == NULL);
    CHECK(login_query_param("/cb/s?a=1#&code=1", "code") == NULL); /* after a fragment: not a parameter */
    CHECK(login_query_param("/cb/s", "code") == NULL);
    CHECK(login_query_param("/cb/s?code", "code") == NULL);
    CHECK(login_query_param("/cb/s?code=%4", "code") == NULL);   /* a cut escape */
    CHECK(login_query_param("/cb/s?code=%zz", "code") == NULL);  /* not hex */
    CHECK(login_query_param("/cb/s?code=a%00b", "code") == NULL); /* a NUL */
    CHECK(login_query_param("/cb/s?error=%1b%5b2J", "error") == NULL); /* an escape sequence */
    char *big = malloc(LOGIN_PARAM_MAX + 32);
    strcpy(big, "/cb/s?code=");
    memset(big + 11, 'a', LOGIN_PARAM_MAX + 1);
    big[11 + LOGIN_PARAM_MAX + 1] = 0;
    CHECK(login_query_param(big, "code") == NULL);
    big[11 + LOGIN_PARAM_MAX] = 0;
    v = login_query_param(big, "code");
    CHECK(v && strlen(v) == LOGIN_PARAM_MAX);
    free(v);
    free(big);
}

TEST(login_pkce_values_follow_rfc_7636)
{
    /* RFC 7636, appendix B */
    char *c = login_pkce_challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk");
    CHECK_STR(c, "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
    free(c);
    char *v1, *c1, *v2, *c2;
    login_new_pkce(&v1, &c1);
    login_new_pkce(&v2, &c2);
    CHECK(strlen(v1) == 43 && strlen(c1) == 43);
    CHECK(strcmp(v1, v2) != 0);
    char *again = login_pkce_challenge(v1);
    CHECK_STR(again, c1);
    for (const char *p = v1; *p; p++) CHECK(strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", *p));
    free(again), free(v1), free(c1), free(v2), free(c2);
    char *s1 = login_new_state(), *s2 = login_new_state();
    CHECK(strlen(s1) == 32 && strcmp(s1, s2) != 0);
    free(s1), free(s2);
    /* base64url: the RFC 4648 test vectors, unpadded, with - and _ */
    const char *in[] = {"", "f", "fo", "foo", "foob", "fooba", "foobar"};
    const char *out[] = {"", "Zg", "Zm8", "Zm9v", "Zm9vYg", "Zm9vYmE", "Zm9vYmFy"};
    for (int i = 0; i < 7; i++) {
        char *b = login_base64url((const unsigned char *)in[i], strlen(in[i]));
        CHECK_STR(b, out[i]);
        free(b);
    }
    char *b = login_base64url((const unsigned char *)"\xfb\xff", 2);
    CHECK_STR(b, "-_8");
    free(b);
    char *e = login_url_encode("http://localhost:1234/callback/a-b_c.d~e?x=1 2");
    CHECK_STR(e, "http%3A%2F%2Flocalhost%3A1234%2Fcallback%2Fa-b_c.d~e%3Fx%3D1%202");
    free(e);
}
