/* test_http.c — the `http` effect's argument checks and settings, through host_call as a worker
 * would call it (guest JS never reaches most of these: fetch validates first, so a hostile worker
 * is the caller these checks are for), and the guard refusing loopback before any connection. */
#define _GNU_SOURCE
#include "unit.h"
#include "host/host.h"
#include "settings/settings.h"
#include "util/buf.h"

#include <stdlib.h>

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* A host under the settings of env (NULL-terminated NAME=value strings), built as the command line
 * builds them: a bad value fails here, as it fails a command at start. */
static settings *host_settings; /* of the last host made (a host keeps a reference) */
static host *new_host_env(char *const *env, char **error)
{
    settings_free(host_settings);
    host_settings = settings_from_environ(env, error);
    if (!host_settings) return NULL;
    host_config cfg = {.project_root = "/tmp", .log_out = stderr, .console_out = stderr, .settings = host_settings};
    return host_new(&cfg, error);
}

static host *new_host(char **error) { return new_host_env((char *[]){NULL}, error); }

/* host_call("http", args as JSON text): HOST_* code, *error kept for the caller. */
static int call(host *h, const char *args_json, char **error)
{
    json_error jerr;
    json_t *args = json_parse(args_json, strlen(args_json), NULL, &jerr);
    if (!args) {
        *error = xasprintf("bad test JSON: %s", jerr.message);
        return -1;
    }
    json_t *result = NULL;
    int rc = host_call(h, "http", args, &result, error);
    json_free(args);
    json_free(result);
    return rc;
}

TEST(http_arguments_are_checked_with_clear_errors)
{
    static const struct { const char *args; const char *words; } rows[] = {
        {"{\"url\":\"http://example.com/\"}", "`method` must be an HTTP method name"},
        {"{\"method\":\"G T\",\"url\":\"http://example.com/\"}", "`method` must be an HTTP method name"},
        {"{\"method\":\"CONNECT\",\"url\":\"http://example.com/\"}", "method `CONNECT` is not allowed"},
        {"{\"method\":\"GET\"}", "`url` must be a string"},
        {"{\"method\":\"GET\",\"url\":7}", "`url` must be a string"},
        {"{\"method\":\"GET\",\"url\":\"file:///etc/passwd\"}", "only http: and https: URLs"},
        {"{\"method\":\"GET\",\"url\":\"ftp://example.com/\"}", "only http: and https: URLs"},
        {"{\"method\":\"GET\",\"url\":\"gopher://example.com/\"}", "only http: and https: URLs"},
        {"{\"method\":\"GET\",\"url\":\"example.com/x\"}", "not a valid absolute URL"},
        {"{\"method\":\"GET\",\"url\":\"http://exa mple.com/\"}", "contains a space, control or non-ASCII"},
        {"{\"method\":\"GET\",\"url\":\"http://example.com/\\r\\nX: y\"}", "contains a space, control or non-ASCII"},
        {"{\"method\":\"GET\",\"url\":\"http://caf\\u00e9.example/\"}", "contains a space, control or non-ASCII"},
        {"{\"method\":\"GET\",\"url\":\"http://\"}", "not a valid absolute URL"},
        {"{\"method\":\"GET\",\"url\":\"http://example.com/\",\"headers\":{}}", "array of [name, value] pairs"},
        {"{\"method\":\"GET\",\"url\":\"http://example.com/\",\"headers\":[[\"a\"]]}", "header 0 must be a [name, value] pair"},
        {"{\"method\":\"GET\",\"url\":\"http://example.com/\",\"headers\":[[\"a\",1]]}", "header 0 must be a [name, value] pair"},
        {"{\"method\":\"GET\",\"url\":\"http://example.com/\",\"headers\":[[\"a b\",\"1\"]]}", "not a valid header name"},
        {"{\"method\":\"GET\",\"url\":\"http://example.com/\",\"headers\":[[\"x\",\"a\\r\\nInjected: 1\"]]}",
         "contains a CR, LF or NUL"},
        {"{\"method\":\"GET\",\"url\":\"http://example.com/\",\"headers\":[[\"x\",\"a\\nb\"]]}", "contains a CR, LF or NUL"},
        {"{\"method\":\"GET\",\"url\":\"http://example.com/\",\"headers\":[[\"x\",\"a\\u0000b\"]]}", "contains a CR, LF or NUL"},
        {"{\"method\":\"GET\",\"url\":\"http://example.com/\",\"headers\":[[\"x\",\"\\u2713\"]]}", "beyond U+00FF"},
        {"{\"method\":\"GET\",\"url\":\"http://example.com/\",\"headers\":[[\"Host\",\"internal\"]]}", "`Host` is set by chidori"},
        {"{\"method\":\"GET\",\"url\":\"http://example.com/\",\"headers\":[[\"Content-Length\",\"5\"]]}", "is set by chidori"},
        {"{\"method\":\"GET\",\"url\":\"http://example.com/\",\"headers\":[[\"transfer-encoding\",\"chunked\"]]}", "is set by chidori"},
        {"{\"method\":\"GET\",\"url\":\"http://example.com/\",\"headers\":[[\"Proxy-Authorization\",\"x\"]]}", "is set by chidori"},
        {"{\"method\":\"POST\",\"url\":\"http://example.com/\",\"body\":5}", "`body` must be a base64 string or null"},
        {"{\"method\":\"POST\",\"url\":\"http://example.com/\",\"body\":\"abc\"}", "`body` is not valid base64"},
        {"{\"method\":\"POST\",\"url\":\"http://example.com/\",\"body\":\"ab=c\"}", "`body` is not valid base64"},
        {"{\"method\":\"POST\",\"url\":\"http://example.com/\",\"body\":\"a\\u0000==\"}", "`body` is not valid base64"},
        {"{\"method\":\"GET\",\"url\":\"http://example.com/\",\"body\":\"aGk=\"}", "a GET request cannot have a body"},
        {"{\"method\":\"HEAD\",\"url\":\"http://example.com/\",\"body\":\"aGk=\"}", "a HEAD request cannot have a body"},
        {"{\"method\":\"GET\",\"url\":\"http://example.com/\",\"redirect\":\"sometimes\"}", "`redirect` must be"},
        {"{\"method\":\"GET\",\"url\":\"http://example.com/\",\"timeout_ms\":0}", "`timeout_ms` must be"},
        {"{\"method\":\"GET\",\"url\":\"http://example.com/\",\"timeout_ms\":1.5}", "`timeout_ms` must be"},
        {"{\"method\":\"GET\",\"url\":\"http://example.com/\",\"timeout_ms\":\"5\"}", "`timeout_ms` must be"},
        {"{\"method\":\"GET\",\"url\":\"http://example.com/\",\"proxy\":\"http://evil/\"}", "unknown argument `proxy`"},
    };
    char *error = NULL;
    host *h = new_host(&error);
    CHECK(h);
    for (size_t i = 0; i < N(rows); i++) {
        error = NULL;
        int rc = call(h, rows[i].args, &error);
        if (rc != HOST_ERROR || !error || !strstr(error, rows[i].words)) {
            char m[700];
            snprintf(m, sizeof m, "row %zu: rc %d, error \"%.400s\", want \"%s\"", i, rc, error ? error : "(none)",
                     rows[i].words);
            free(error);
            host_free(h);
            unit_fail(__FILE__, __LINE__, m);
            return;
        }
        CHECK(!strchr(error, '\n') && !strchr(error, '\r'));
        free(error);
    }
    /* a URL over the cap */
    buf big = {0};
    buf_puts(&big, "{\"method\":\"GET\",\"url\":\"http://example.com/");
    for (int i = 0; i < 20000; i++) buf_putc(&big, 'a');
    buf_puts(&big, "\"}");
    CHECK(call(h, big.data, &error) == HOST_ERROR && strstr(error, "longer than"));
    free(error);
    buf_free(&big);
    host_free(h);
}

TEST(http_request_body_cap_is_enforced)
{
    char *error = NULL;
    host *h = new_host_env((char *[]){"CHIDORI_HTTP_MAX_REQUEST_BYTES=4", NULL}, &error);
    CHECK(h);
    /* 6 bytes: over; checked before anything is sent */
    CHECK(call(h, "{\"method\":\"POST\",\"url\":\"http://127.0.0.1:1/\",\"body\":\"aGVsbG8h\"}", &error) == HOST_ERROR);
    CHECK(strstr(error, "larger than CHIDORI_HTTP_MAX_REQUEST_BYTES (4 bytes)"));
    free(error);
    host_free(h);
}

TEST(http_guard_refuses_loopback_and_metadata_before_connecting)
{
    char *error = NULL;
    host *h = new_host(&error);
    CHECK(h);
    static const struct { const char *url; const char *words; } rows[] = {
        {"http://127.0.0.1:1/", "127.0.0.1 is loopback"},
        {"http://[::1]:1/", "::1 is loopback"},
        {"http://169.254.169.254/latest/meta-data/", "169.254.169.254 is link-local"},
        {"http://[::ffff:169.254.169.254]/", "is link-local (incl. cloud metadata) (it carries 169.254.169.254)"},
        {"http://0x7f000001:1/", "127.0.0.1 is loopback"},
        {"http://10.1.2.3:1/", "10.1.2.3 is private"},
        {"http://100.64.0.1:1/", "shared address space (CGNAT)"},
    };
    for (size_t i = 0; i < N(rows); i++) {
        char *args = xasprintf("{\"method\":\"GET\",\"url\":\"%s\",\"timeout_ms\":2000}", rows[i].url);
        error = NULL;
        int rc = call(h, args, &error);
        free(args);
        if (rc != HOST_ERROR || !error || !strstr(error, rows[i].words) || !strstr(error, "http: refused") ||
            !strstr(error, "CHIDORI_HTTP_ALLOW_HOSTS")) {
            char m[700];
            snprintf(m, sizeof m, "row %zu: rc %d, error \"%.400s\"", i, rc, error ? error : "(none)");
            free(error);
            host_free(h);
            unit_fail(__FILE__, __LINE__, m);
            return;
        }
        free(error);
    }
    host_free(h);
}

TEST(http_settings_from_the_environment_are_checked_at_start)
{
    static const struct { const char *name, *value, *words; } rows[] = {
        {"CHIDORI_HTTP_ALLOW_HOSTS", "localhost:8080", "CHIDORI_HTTP_ALLOW_HOSTS: `localhost:8080` is not a host name"},
        {"CHIDORI_HTTP_ALLOW_HOSTS", "10.0.0.0/33", "CHIDORI_HTTP_ALLOW_HOSTS: `10.0.0.0/33`"},
        {"CHIDORI_HTTP_MAX_BYTES", "0", "CHIDORI_HTTP_MAX_BYTES must be a whole number from 1 to"},
        {"CHIDORI_HTTP_MAX_BYTES", "ten", "CHIDORI_HTTP_MAX_BYTES must be"},
        {"CHIDORI_HTTP_MAX_BYTES", "99999999999", "CHIDORI_HTTP_MAX_BYTES must be"},
        {"CHIDORI_HTTP_MAX_REDIRECTS", "-1", "CHIDORI_HTTP_MAX_REDIRECTS must be"},
        {"CHIDORI_HTTP_MAX_REDIRECTS", "101", "CHIDORI_HTTP_MAX_REDIRECTS must be"},
        {"CHIDORI_HTTP_TIMEOUT_MS", "0", "CHIDORI_HTTP_TIMEOUT_MS must be"},
        {"CHIDORI_HTTP_TIMEOUT_MS", "1e3", "CHIDORI_HTTP_TIMEOUT_MS must be"},
        {"CHIDORI_HTTP_MAX_REQUEST_BYTES", "x", "CHIDORI_HTTP_MAX_REQUEST_BYTES must be"},
    };
    for (size_t i = 0; i < N(rows); i++) {
        char *kv = xasprintf("%s=%s", rows[i].name, rows[i].value);
        char *error = NULL;
        host *h = new_host_env((char *[]){kv, NULL}, &error);
        free(kv);
        if (h || !error || !strstr(error, rows[i].words)) {
            char m[600];
            snprintf(m, sizeof m, "row %zu: %s", i, error ? error : "(host started)");
            free(error);
            host_free(h);
            unit_fail(__FILE__, __LINE__, m);
            return;
        }
        free(error);
    }
    char *error = NULL;
    host *h = new_host_env((char *[]){"CHIDORI_HTTP_ALLOW_HOSTS=localhost, 127.0.0.0/8 ::1", "CHIDORI_HTTP_MAX_REDIRECTS=0", NULL},
                           &error);
    CHECK(h && !error);
    host_free(h);
}
