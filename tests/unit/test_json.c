/* test_json.c — the JSON parser's strictness, limits and positions; the serializer's
 * JSON.stringify compatibility. */
#include "unit.h"
#include "util/buf.h"
#include "util/json.h"

#include <math.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static char *roundtrip(const char *in, int flags)
{
    json_error err;
    json_t *v = json_parse(in, strlen(in), NULL, &err);
    if (!v) return NULL;
    char *out = json_dump(v, flags, NULL);
    json_free(v);
    return out;
}

#define CHECK_ROUNDTRIP(in, want)       \
    do {                                \
        char *got_ = roundtrip(in, 0);  \
        CHECK_STR(got_, want);          \
        free(got_);                     \
    } while (0)

TEST(json_roundtrips_like_json_stringify)
{
    CHECK_ROUNDTRIP("{\"a\":[1,2.5,-0,1e21,1e-7,123456789012345680000,0.1,null,true,false]}",
                    "{\"a\":[1,2.5,0,1e+21,1e-7,123456789012345680000,0.1,null,true,false]}");
    CHECK_ROUNDTRIP("\"tab\\there \\u0001 \\/ \\u00e9 \\ud83d\\ude00\"", "\"tab\\there \\u0001 / \xc3\xa9 \xf0\x9f\x98\x80\"");
    CHECK_ROUNDTRIP("\"lone \\ud800 surrogate\"", "\"lone \\ud800 surrogate\"");
    CHECK_ROUNDTRIP("{\"k\":1,\"k\":2,\"j\":3}", "{\"k\":2,\"j\":3}");
    CHECK_ROUNDTRIP("  [ ]  ", "[]");
    CHECK_ROUNDTRIP("1.5e300", "1.5e+300");
    CHECK_ROUNDTRIP("0.000001", "0.000001");
    CHECK_ROUNDTRIP("5e-324", "5e-324");
}

TEST(json_pretty_matches_stringify_indent_2)
{
    char *s = roundtrip("{\"a\":[1,{\"b\":{}}],\"c\":[]}", JSON_PRETTY);
    CHECK_STR(s, "{\n  \"a\": [\n    1,\n    {\n      \"b\": {}\n    }\n  ],\n  \"c\": []\n}");
    free(s);
}

TEST(json_number_formatting_follows_number_tostring)
{
    char buf[40];
    struct { double d; const char *s; } cases[] = {
        {0.1 + 0.2, "0.30000000000000004"}, {1e21, "1e+21"}, {1e20, "100000000000000000000"},
        {123e-20, "1.23e-18"}, {-1.5, "-1.5"}, {NAN, "null"}, {INFINITY, "null"}, {4294967295.0, "4294967295"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        json_format_number(cases[i].d, buf);
        CHECK_STR(buf, cases[i].s);
    }
}

TEST(json_compact_is_says_whether_the_compact_dump_is_that_text)
{
    static const char *const texts[] = {"{\"label\":\"tick\"}", "[1,2.5,-3e-7,true,false,null,[],{}]", "\"x y\"", "0",
                                        "{\"a\":{\"b\":[{}]},\"c\":\"\"}"};
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
        json_error err;
        json_t *v = json_parse(texts[i], strlen(texts[i]), NULL, &err);
        char *dump = json_dump(v, JSON_COMPACT, NULL);
        CHECK_STR(dump, texts[i]);
        CHECK(json_compact_is(v, texts[i], strlen(texts[i])));
        size_t n = strlen(texts[i]);
        CHECK(!json_compact_is(v, texts[i], n - 1)); /* a prefix is not the text */
        char *longer = xasprintf("%s ", texts[i]);
        CHECK(!json_compact_is(v, longer, n + 1));
        free(longer);
        free(dump);
        json_free(v);
    }
    json_error err;
    json_t *v = json_parse("{\"a\":1,\"b\":\"c\"}", 15, NULL, &err);
    CHECK(!json_compact_is(v, "{\"b\":\"c\",\"a\":1}", 15)); /* the same values, another text */
    CHECK(!json_compact_is(v, "{\"a\":1.0,\"b\":\"c\"}", 17));
    CHECK(!json_compact_is(NULL, "null", 4));
    json_free(v);
    /* what the dump writes as text another value parses to: NaN and the infinities ("null"), raw
     * text; false, so the caller compares values */
    json_t *o = json_object();
    json_object_set(o, "a", json_number(NAN));
    CHECK(!json_compact_is(o, "{\"a\":null}", 10));
    json_object_set(o, "a", json_number(-INFINITY));
    CHECK(!json_compact_is(o, "{\"a\":null}", 10));
    json_object_set(o, "a", json_raw(xstrdup("1,\"b\":2"), 7));
    CHECK(!json_compact_is(o, "{\"a\":1,\"b\":2}", 13));
    json_free(o);
    /* a string that is not plain ASCII: false, even where the dump is the text */
    v = json_parse("\"a\\\"b\"", 6, NULL, &err);
    char *dump = json_dump(v, JSON_COMPACT, NULL);
    CHECK_STR(dump, "\"a\\\"b\"");
    CHECK(!json_compact_is(v, dump, strlen(dump)));
    free(dump);
    json_free(v);
}

TEST(json_rejects_what_json_parse_rejects)
{
    const char *bad[] = {"", "{", "[1,]", "{\"a\":1,}", "01", "1.", ".5", "+1", "NaN", "'x'", "\"\x01\"",
                         "\"\\x\"", "\"\\u12\"", "{a:1}", "[1 2]", "tru", "nulls", "1 2", "\"\xff\"",
                         "\"\xc0\xaf\"", "\"\xed\xa0\x80\"", "// c\n1", "\xef\xbb\xbf{}"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        json_error err;
        json_t *v = json_parse(bad[i], strlen(bad[i]), NULL, &err);
        if (v) {
            char m[128];
            snprintf(m, sizeof m, "accepted bad input #%zu", i);
            json_free(v);
            unit_fail(__FILE__, __LINE__, m);
            return;
        }
        CHECK(err.line >= 1 && err.col >= 1 && err.message[0]);
    }
}

TEST(json_error_names_line_and_column)
{
    json_error err;
    const char *text = "{\n  \"a\": 1,\n  \"b\": ?\n}";
    CHECK(!json_parse(text, strlen(text), NULL, &err));
    CHECK(err.line == 3);
    CHECK(err.col == 8);
}

TEST(json_values_remember_their_position)
{
    json_error err;
    const char *text = "{\n  \"rules\": [\n    {\"target\": \"http\"}\n  ]\n}";
    json_t *v = json_parse(text, strlen(text), NULL, &err);
    CHECK(v);
    json_t *rule = json_object_get(v, "rules")->u.array.items[0];
    json_t *target = json_object_get(rule, "target");
    CHECK(rule->line == 3 && rule->col == 5);
    CHECK(target->line == 3 && target->col == 16);
    json_free(v);
}

TEST(json_limits_size_and_depth)
{
    json_error err;
    json_limits lim = {16, 4, 0};
    CHECK(!json_parse("[\"0123456789abcdef\"]", 20, &lim, &err));
    CHECK(strstr(err.message, "limit"));
    CHECK(!json_parse("[[[[[1]]]]]", 11, &lim, &err));
    CHECK(strstr(err.message, "deep"));
    json_t *ok = json_parse("[[[[1]]]]", 9, &lim, &err);
    CHECK(ok);
    json_free(ok);
    /* deep nesting with the defaults: an error, not a stack overflow */
    size_t n = 200000;
    char *deep = malloc(n);
    memset(deep, '[', n);
    CHECK(!json_parse(deep, n, NULL, &err));
    free(deep);
}

TEST(json_does_not_read_past_len)
{
    /* the buffer is not NUL-terminated where len ends */
    char text[] = {'[', '1', ',', '2', ']', 'X', 'X'};
    json_error err;
    json_t *v = json_parse(text, 5, NULL, &err);
    CHECK(v && v->u.array.len == 2);
    json_free(v);
    CHECK(!json_parse(text, 4, NULL, &err));
    CHECK(!json_parse("\"abc", 4, NULL, &err));
    CHECK(!json_parse("\"\\u00", 5, NULL, &err));
}

TEST(json_build_copy_equal)
{
    json_t *o = json_object();
    json_object_set(o, "s", json_stringn("a\0b", 3));
    json_object_set(o, "n", json_number(3));
    json_t *a = json_array();
    json_array_push(a, json_bool(true));
    json_object_set(o, "a", a);
    json_t *c = json_copy(o);
    CHECK(json_equal(o, c));
    json_object_set(c, "n", json_number(4));
    CHECK(!json_equal(o, c));
    char *s = json_dump(o, 0, NULL);
    CHECK_STR(s, "{\"s\":\"a\\u0000b\",\"n\":3,\"a\":[true]}");
    free(s);
    json_free(o);
    json_free(c);
}

TEST(json_large_objects_are_indexed_and_duplicates_keep_their_place)
{
    buf b = {0};
    buf_putc(&b, '{');
    for (int i = 0; i < 50000; i++) buf_printf(&b, "%s\"k%d\":%d", i ? "," : "", i % 40000, i);
    buf_putc(&b, '}');
    json_error err;
    json_t *v = json_parse(b.data, b.len, NULL, &err);
    buf_free(&b);
    CHECK(v && v->u.object.len == 40000);
    CHECK(json_number_value(json_object_get(v, "k5")) == 40005); /* the last value wins */
    CHECK(json_number_value(json_object_get(v, "k39999")) == 39999);
    CHECK(!json_object_get(v, "k40000"));
    CHECK_STR(v->u.object.items[5].key, "k5"); /* at its first position */
    json_t *c = json_copy(v);
    CHECK(json_equal(v, c));
    json_free(c);
    json_free(v);
}

TEST(json_caps_the_number_of_values)
{
    json_limits lim = {1 << 20, 64, 1000};
    json_error err;
    char text[4096];
    size_t n = 0;
    text[n++] = '[';
    for (int i = 0; i < 1200; i++) text[n++] = '0', text[n++] = ',';
    text[n - 1] = ']';
    CHECK(!json_parse(text, n, &lim, &err) && strstr(err.message, "too many values"));
}

/* json.c keeps freed nodes for the next ones: a node freed twice must still end the process (as
 * glibc's own check did), never be handed out twice. */
TEST(json_free_twice_ends_the_process)
{
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        int quiet = open("/dev/null", O_WRONLY); /* the sanitizer's report of it is expected */
        if (quiet >= 0) dup2(quiet, 2);
        json_t *a = json_object();
        json_object_set(a, "k", json_string("v"));
        json_t *n = json_number(1);
        json_free(n);
        json_free(n); /* the second free */
        json_t *x = json_number(2), *y = json_number(3);
        _exit(x == y ? 3 : 0);
    }
    int status = 0;
    CHECK(waitpid(pid, &status, 0) == pid);
    CHECK(!(WIFEXITED(status) && (WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == 3)));
}
