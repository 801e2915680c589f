/* test_prompt_notify.c — prompt events as NOTIFY payloads (src/serve/prompt_notify.c): one that
 * fits goes as one payload and comes back the same; a delta too large for PostgreSQL's limit is
 * split into deltas that each fit and concatenate, in order, to the original (UTF-8 never cut);
 * an error too long is cut with "…"; garbage, forged shapes and deep nesting are refused. */
#define _GNU_SOURCE
#include "unit.h"
#include "serve/prompt_notify.h"
#include "util/buf.h"

#include <stdlib.h>

typedef struct got {
    char *payloads[256];
    int n;
} got;

static void keep(void *ctx, const char *payload)
{
    got *g = ctx;
    if (g->n < 256) g->payloads[g->n++] = xstrdup(payload);
}

static void got_free(got *g)
{
    for (int i = 0; i < g->n; i++) free(g->payloads[i]);
    g->n = 0;
}

static json_t *event(const char *type, const char *key, const char *text)
{
    json_t *e = json_object();
    json_object_set(e, "type", json_string(type));
    json_object_set(e, "seq", json_number(4));
    json_object_set(e, "stream_id", json_string("6f1c3b8e-0d2a-4c1e-9a51-3b2f6c7d8e90"));
    json_object_set(e, "prompt_type", json_string("summary"));
    if (key) json_object_set(e, key, json_string(text));
    json_object_set(e, "provider_secret", json_string("not sent"));
    return e;
}

TEST(prompt_notify_round_trip)
{
    got g = {0};
    json_t *e = event("prompt_delta", "delta", "Hello, \"world\"");
    prompt_notify_encode("node-a", "s-1", 3, 7, e, keep, &g);
    json_free(e);
    CHECK(g.n == 1);
    prompt_notice n;
    CHECK(prompt_notify_decode(g.payloads[0], strlen(g.payloads[0]), &n));
    CHECK_STR(n.node, "node-a");
    CHECK_STR(n.session, "s-1");
    CHECK(n.records == 3 && n.attempt == 7);
    CHECK_STR(json_string_value(json_object_get(n.event, "delta")), "Hello, \"world\"");
    CHECK_STR(json_string_value(json_object_get(n.event, "type")), "prompt_delta");
    CHECK(json_object_get(n.event, "provider_secret") == NULL);
    prompt_notice_clear(&n);
    got_free(&g);
    /* not a prompt event: nothing sent */
    e = event("call", NULL, NULL);
    prompt_notify_encode("node-a", "s-1", 3, 7, e, keep, &g);
    json_free(e);
    CHECK(g.n == 0);
}

TEST(prompt_notify_splits_a_large_delta_in_order)
{
    /* 30000 bytes: two-byte characters, quotes and control bytes (escaped 6x) mixed */
    buf b = {0};
    for (int i = 0; i < 3000; i++) buf_puts(&b, i % 3 ? "é\"ab\x01xyz" : "0123456789");
    char *text = buf_steal(&b);
    json_t *e = event("prompt_delta", "delta", text);
    got g = {0};
    prompt_notify_encode("node-a", "s-1", 5, -1, e, keep, &g);
    json_free(e);
    CHECK(g.n > 4);
    buf joined = {0};
    for (int i = 0; i < g.n; i++) {
        CHECK(strlen(g.payloads[i]) <= PROMPT_NOTIFY_MAX);
        prompt_notice n;
        CHECK(prompt_notify_decode(g.payloads[i], strlen(g.payloads[i]), &n));
        CHECK(n.records == 5 && n.attempt == -1);
        CHECK(json_number_value(json_object_get(n.event, "seq")) == 4);
        buf_puts(&joined, json_string_value(json_object_get(n.event, "delta")));
        prompt_notice_clear(&n);
    }
    char *all = buf_steal(&joined);
    CHECK_STR(all, text);
    free(all);
    free(text);
    got_free(&g);
}

TEST(prompt_notify_cuts_a_long_error)
{
    char *long_error = xmalloc(20001);
    memset(long_error, 'e', 20000);
    long_error[20000] = 0;
    json_t *e = event("prompt_end", "error", long_error);
    got g = {0};
    prompt_notify_encode("node-a", "s-1", 0, 1, e, keep, &g);
    json_free(e);
    free(long_error);
    CHECK(g.n == 1);
    prompt_notice n;
    CHECK(prompt_notify_decode(g.payloads[0], strlen(g.payloads[0]), &n));
    const char *err = json_string_value(json_object_get(n.event, "error"));
    CHECK(err && strlen(err) == PROMPT_NOTIFY_TEXT_MAX + strlen("…") && strstr(err, "…"));
    prompt_notice_clear(&n);
    got_free(&g);
}

TEST(prompt_notify_refuses_garbage)
{
    static const char *const bad[] = {
        "", "null", "[]", "{", "not json", "{\"a\":-1}",
        /* each a well-formed payload with one field wrong */
        "{\"a\":-1,\"e\":{\"type\":\"prompt_delta\",\"seq\":1,\"stream_id\":\"x\"},\"n\":\"b\",\"r\":0,\"s\":\"s\"}",
        "{\"a\":-1,\"e\":{\"type\":\"call\",\"seq\":1,\"stream_id\":\"x\"},\"n\":\"b\",\"r\":0,\"s\":\"s\"}",
        "{\"a\":-2,\"e\":{\"type\":\"prompt_start\",\"seq\":1,\"stream_id\":\"x\"},\"n\":\"b\",\"r\":0,\"s\":\"s\"}",
        "{\"a\":-1,\"e\":{\"type\":\"prompt_start\",\"seq\":1,\"stream_id\":\"x\"},\"n\":\"b\",\"r\":0.5,\"s\":\"s\"}",
        "{\"a\":-1,\"e\":{\"type\":\"prompt_start\",\"seq\":1,\"stream_id\":\"x\"},\"n\":\"\",\"r\":0,\"s\":\"s\"}",
        "{\"a\":-1,\"e\":{\"type\":\"prompt_start\",\"seq\":1,\"stream_id\":\"x\"},\"n\":\"b\",\"r\":0,\"s\":\"s\\u0000t\"}",
        "{\"a\":-1,\"e\":{\"type\":\"prompt_start\",\"seq\":1,\"stream_id\":7},\"n\":\"b\",\"r\":0,\"s\":\"s\"}",
        "{\"a\":-1,\"e\":{\"type\":\"prompt_start\",\"seq\":1,\"stream_id\":\"x\",\"model\":[1]},\"n\":\"b\",\"r\":0,\"s\":\"s\"}",
        "{\"a\":-1,\"e\":{\"type\":\"prompt_start\",\"seq\":{\"a\":{\"b\":1}},\"stream_id\":\"x\"},\"n\":\"b\",\"r\":0,\"s\":\"s\"}",
        "{\"a\":-1,\"e\":[1],\"n\":\"b\",\"r\":0,\"s\":\"s\"}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        prompt_notice n;
        if (prompt_notify_decode(bad[i], strlen(bad[i]), &n)) {
            prompt_notice_clear(&n);
            unit_fail(__FILE__, __LINE__, bad[i]);
            return;
        }
    }
    const char *good = "{\"a\":-1,\"e\":{\"type\":\"prompt_start\",\"seq\":1,\"stream_id\":\"x\",\"model\":null},"
                       "\"n\":\"b\",\"r\":0,\"s\":\"s\"}";
    prompt_notice n;
    CHECK(prompt_notify_decode(good, strlen(good), &n));
    prompt_notice_clear(&n);
    /* deep nesting and a payload past the limit */
    char *deep = xmalloc(4001);
    memset(deep, '[', 2000);
    memset(deep + 2000, ']', 2000);
    deep[4000] = 0;
    CHECK(!prompt_notify_decode(deep, 4000, &n));
    free(deep);
    char *big = xmalloc(PROMPT_NOTIFY_MAX + 100);
    memset(big, ' ', PROMPT_NOTIFY_MAX + 100);
    memcpy(big, good, strlen(good));
    CHECK(!prompt_notify_decode(big, PROMPT_NOTIFY_MAX + 100, &n));
    free(big);
}
