/* test_urlnorm.c — the URL normalizer of the `http` effect (src/host/urlnorm.c): WHATWG results
 * for scheme, host (IPv4 spellings, IPv6, percent-encoding), port, dot segments in every spelling,
 * backslashes and percent-encoding; the refusals (credentials, hidden dot segments, bad hosts and
 * ports, garbage); idempotence of every accepted row. Table-driven; a failing row names itself. */
#include "unit.h"
#include "host/policy.h"
#include "host/urlnorm.h"
#include "util/buf.h"

#include <stdbool.h>
#include <stdlib.h>

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void fail_row(int line, const char *in, const char *got, const char *want)
{
    char m[1024];
    snprintf(m, sizeof m, "url_normalize(\"%.300s\") = \"%.300s\", want \"%.300s\"", in, got ? got : "(error)",
             want ? want : "(error)");
    unit_fail(__FILE__, line, m);
}

TEST(urlnorm_gives_the_whatwg_form)
{
    static const struct { const char *in, *want; } rows[] = {
        {"http://example.com", "http://example.com/"},
        {"HTTP://Example.COM/A/b", "http://example.com/A/b"},
        {"https://h:443/x", "https://h/x"},
        {"http://h:80/x", "http://h/x"},
        {"http://h:0080/x", "http://h/x"},
        {"http://h:08080/x", "http://h:8080/x"},
        {"http://h:/x", "http://h/x"},
        {"https://h:80/", "https://h:80/"},
        {"http://h/public/../admin/secret", "http://h/admin/secret"},
        {"http://h/public/%2e%2e/admin", "http://h/admin"},
        {"http://h/public/%2E%2e/admin", "http://h/admin"},
        {"http://h/public/.%2e/admin", "http://h/admin"},
        {"http://h/public/%2e./admin", "http://h/admin"},
        {"http://h/public/./x/%2e/y", "http://h/public/x/y"},
        {"http://h/public\\..\\admin", "http://h/admin"},
        {"http:\\\\h\\a\\b", "http://h/a/b"},
        {"http:h/a", "http://h/a"},
        {"http:////h/a", "http://h/a"},
        {"http://h/a/..", "http://h/"},
        {"http://h/a/../", "http://h/"},
        {"http://h/a/.", "http://h/a/"},
        {"http://h/../../..", "http://h/"},
        {"http://h/a/b/../../../c", "http://h/c"},
        {"http://h/a//b/../c", "http://h/a//c"},
        {"http://h//a", "http://h//a"},
        {"http://h/a\\\\\\/./", "http://h/a////"},
        {"http://h\\\\\\/./", "http://h////"},
        {"http://h/...", "http://h/..."},
        {"http://h/..a", "http://h/..a"},
        {"http://h/a%2fb", "http://h/a%2Fb"},
        {"http://h/%7e", "http://h/%7E"},
        {"http://h/100%", "http://h/100%"},
        {"http://h/a\"b<c>`{}", "http://h/a%22b%3Cc%3E%60%7B%7D"},
        {"http://h/p?q=1&r='x'<", "http://h/p?q=1&r=%27x%27%3C"},
        {"http://h/p?a/../b", "http://h/p?a/../b"},
        {"http://h/p?", "http://h/p?"},
        {"http://h/p#frag", "http://h/p"},
        {"http://h/p?q#f", "http://h/p?q"},
        {"http://h#f", "http://h/"},
        {"http://h?q", "http://h/?q"},
        {"http://127.0.0.1/", "http://127.0.0.1/"},
        {"http://0x7f.1/", "http://127.0.0.1/"},
        {"http://2130706433/", "http://127.0.0.1/"},
        {"http://0177.0.0.1/", "http://127.0.0.1/"},
        {"http://127.1/", "http://127.0.0.1/"},
        {"http://1.256/", "http://1.0.1.0/"},
        {"http://127.0.0.1./", "http://127.0.0.1/"},
        {"http://0x/", "http://0.0.0.0/"},
        {"http://%31%32%37.0.0.1/", "http://127.0.0.1/"},
        {"http://EX%41MPLE.com/", "http://example.com/"},
        {"http://example.com./", "http://example.com./"},
        {"http://[::1]/", "http://[::1]/"},
        {"http://[0:0:0:0:0:0:0:1]:8080/", "http://[::1]:8080/"},
        {"http://[2001:DB8:0:0:1:0:0:1]/", "http://[2001:db8::1:0:0:1]/"},
        {"http://[::ffff:127.0.0.1]/", "http://[::ffff:7f00:1]/"},
        {"http://[1:0:0:2::]/", "http://[1:0:0:2::]/"},
        {"http://[1:2:3:4:5:6:7:8]/", "http://[1:2:3:4:5:6:7:8]/"},
        {"http://[0:1:0:1:0:1:0:1]/", "http://[0:1:0:1:0:1:0:1]/"},
    };
    for (size_t i = 0; i < N(rows); i++) {
        char *err = NULL;
        char *got = url_normalize(rows[i].in, strlen(rows[i].in), &err);
        if (!got || strcmp(got, rows[i].want) != 0) {
            fail_row(__LINE__, rows[i].in, got ? got : err, rows[i].want);
            free(got), free(err);
            return;
        }
        char *again = url_normalize(got, strlen(got), &err);
        if (!again || strcmp(again, got) != 0) {
            fail_row(__LINE__, got, again ? again : err, got);
            free(got), free(again), free(err);
            return;
        }
        free(got), free(again);
    }
}

TEST(urlnorm_refuses_what_servers_could_read_two_ways)
{
    static const struct { const char *in, *words; } rows[] = {
        {"http://h/public/..%2fadmin", "dot segment"},
        {"http://h/public/..%2Fadmin", "dot segment"},
        {"http://h/public/%2e%2e%2fadmin", "dot segment"},
        {"http://h/public/%2e%2e%5cadmin", "dot segment"},
        {"http://h/public/a%2f..%2f..%2fadmin", "dot segment"},
        {"http://h/public/..;x/admin", "dot segment"},
        {"http://h/public/%2e%2e;/admin", "dot segment"},
        {"http://user:pw@h/", "credentials"},
        {"http://h@evil.example/", "credentials"},
        {"http://@h/", "credentials"},
        {"ftp://h/", "only http: and https:"},
        {"javascript:alert(1)", "only http: and https:"},
        {"/relative", "not a valid absolute URL"},
        {"", "not a valid absolute URL"},
        {"http", "not a valid absolute URL"},
        {"http://", "no host"},
        {"http:///", "no host"},
        {"http://:80/", "no host"},
        {"http://h:65536/", "port"},
        {"http://h:99999999999999999999/", "port"},
        {"http://h:8x/", "port"},
        {"http://h:-1/", "port"},
        {"http://1.2.3.4.5/", "IPv4"},
        {"http://256.0.0.1/", "IPv4"},
        {"http://1.2.3.256/x", "IPv4"},
        {"http://4294967296/", "IPv4"},
        {"http://09.0.0.1/", "IPv4"},
        {"http://a.1/", "IPv4"},
        {"http://h%2fx/", "character in its host"},
        {"http://h%00/", "character in its host"},
        {"http://h%C3%A9/", "non-ASCII"},
        {"http://h^/", "character in its host"},
        {"http://[::1/", "IPv6"},
        {"http://[::1]x/", "IPv6"},
        {"http://[1.2.3.4]/", "IPv6"},
        {"http://[fe80::1%25eth0]/", "IPv6"},
        {"http://h/a b", "space, control or non-ASCII"},
        {"http://h/\x1b", "space, control or non-ASCII"},
        {"http://h/\xc3\xa9", "space, control or non-ASCII"},
    };
    for (size_t i = 0; i < N(rows); i++) {
        char *err = NULL;
        char *got = url_normalize(rows[i].in, strlen(rows[i].in), &err);
        if (got || !err || !strstr(err, rows[i].words)) {
            char m[1024];
            snprintf(m, sizeof m, "row %zu (%s): got %s, wanted an error naming \"%s\"", i, rows[i].in,
                     got ? got : err ? err : "(nothing)", rows[i].words);
            unit_fail(__FILE__, __LINE__, m);
            free(got), free(err);
            return;
        }
        for (const char *p = err; *p; p++) CHECK((unsigned char)*p >= 0x20 && (unsigned char)*p < 0x7f);
        free(err);
    }
}

TEST(urlnorm_caps_the_length_in_and_out)
{
    size_t n = URLNORM_MAX + 1;
    char *big = xmalloc(n + 1);
    memcpy(big, "http://h/", 9);
    memset(big + 9, 'a', n - 9);
    big[n] = 0;
    char *err = NULL;
    CHECK(!url_normalize(big, n, &err) && strstr(err, "longer than"));
    free(err);
    /* within the input cap, but percent-encoding triples it */
    memset(big + 9, '"', URLNORM_MAX - 9);
    err = NULL;
    CHECK(!url_normalize(big, URLNORM_MAX, &err) && strstr(err, "once normalized"));
    free(err);
    free(big);
    char *ok = url_normalize("http://h/\0x", 11, &err);
    CHECK(!ok && err);
    free(err);
}

TEST(urlnorm_policy_url_prefix_must_be_in_the_normalized_form)
{
    static const struct { const char *prefix; const char *want; } rows[] = {
        {"https://api.example.com/", NULL}, {"https://api.example.com/v1", NULL}, {"https://api.example.com", NULL},
        {"http://127.0.0.1:8080/public/", NULL}, {"/relative/", NULL}, {"", NULL},
        {"HTTPS://API.example.com/", "\"https://api.example.com/\""},
        {"http://h:80/x", "\"http://h/x\""},
        {"http://h/a/../b/", "\"http://h/b/\""},
        {"http://0x7f.1/", "\"http://127.0.0.1/\""},
    };
    for (size_t i = 0; i < N(rows); i++) {
        char *doc = xasprintf("{\"rules\": [{\"target\": \"http\", \"decision\": \"always_allow\", "
                              "\"match_args\": {\"url_prefix\": \"%s\"}}], \"default\": \"never_allow\"}",
                              rows[i].prefix);
        char *err = NULL;
        policy *p = policy_parse(doc, strlen(doc), "test", &err);
        bool ok = rows[i].want ? (!p && err && strstr(err, rows[i].want) && strstr(err, "normalized"))
                               : (p && !err);
        if (!ok) {
            char m[600];
            snprintf(m, sizeof m, "row %zu (%s): %s", i, rows[i].prefix, err ? err : "accepted");
            unit_fail(__FILE__, __LINE__, m);
        }
        policy_free(p);
        free(err);
        free(doc);
        if (!ok) return;
    }
}
