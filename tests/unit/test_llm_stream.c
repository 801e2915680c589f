/* test_llm_stream.c — streamed provider replies (src/host/llm_stream.c): the SSE parser's framing
 * and limits, and that a streamed reply rebuilds exactly the response of the same reply whole. */
#include "host/llm_internal.h"
#include "unit.h"

#include <stdlib.h>
#include <string.h>

typedef struct seen {
    buf log;
    int n;
} seen;

static int collect(void *ctx, const char *event, const char *data, size_t len, char **error)
{
    seen *s = ctx;
    buf_printf(&s->log, "[%s|%.*s]", event, (int)len, data);
    s->n++;
    return 0;
}

/* Feed text in pieces of `step` bytes. */
static int feed(llm_sse *p, const char *text, size_t step, char **error)
{
    size_t n = strlen(text);
    for (size_t i = 0; i < n; i += step)
        if (llm_sse_feed(p, text + i, i + step < n ? step : n - i, error) < 0) return -1;
    return llm_sse_finish(p, error);
}

TEST(llm_sse_framing_in_any_pieces)
{
    const char *text = ": comment\r\nevent: one\r\ndata: a\r\ndata:b\r\n\r\n"
                       "data: c\rid: 7\r\rretry: 5\nunknown: x\ndata\n\n"
                       "data: last, unterminated";
    for (size_t step = 1; step <= strlen(text); step++) {
        seen s = {0};
        llm_sse p;
        llm_sse_init(&p, 64, 1024, collect, &s);
        char *err = NULL;
        int rc = feed(&p, text, step, &err);
        llm_sse_free(&p);
        CHECK(rc == 0 && !err);
        CHECK_STR(s.log.data, "[one|a\nb][|c][|][|last, unterminated]");
        buf_free(&s.log);
    }
}

TEST(llm_sse_limits_per_event_line_and_total)
{
    char *err = NULL;
    seen s = {0};
    llm_sse p;
    llm_sse_init(&p, 16, 1024, collect, &s);
    CHECK(feed(&p, "data: 0123456789\ndata: 0123456789\n\n", 5, &err) < 0);
    CHECK_STR(err, "a streamed event is larger than the 16-byte limit");
    free(err), err = NULL;
    llm_sse_free(&p);
    llm_sse_init(&p, 16, 1024, collect, &s);
    CHECK(feed(&p, "data: 01234567890123456789\n\n", 3, &err) < 0);
    CHECK_STR(err, "a streamed line is longer than the 16-byte limit");
    free(err), err = NULL;
    llm_sse_free(&p);
    llm_sse_init(&p, 16, 40, collect, &s);
    CHECK(feed(&p, "data: a\n\ndata: b\n\ndata: c\n\ndata: d\n\ndata: e\n\n", 4, &err) < 0);
    CHECK_STR(err, "the streamed response is larger than the 40-byte limit");
    free(err);
    llm_sse_free(&p);
    buf_free(&s.log);
}

typedef struct deltas {
    buf text;
    int n;
} deltas;

static void on_delta(void *ctx, const char *t, size_t n)
{
    deltas *d = ctx;
    buf_append(&d->text, t, n);
    d->n++;
}

static json_t *streamed(llm_wire wire, const char *sse, deltas *d, char **err)
{
    llm_stream_acc *acc = llm_stream_acc_new(wire, 1 << 20, on_delta, d);
    llm_sse p;
    llm_sse_init(&p, 1 << 20, 1 << 20, llm_stream_acc_event, acc);
    json_t *out = NULL;
    if (feed(&p, sse, 7, err) == 0) llm_stream_acc_finish(acc, "fallback", &out, err);
    llm_sse_free(&p);
    llm_stream_acc_free(acc);
    return out;
}

static bool same_as_whole(const json_t *got, llm_wire wire, const char *whole)
{
    json_t *want = NULL;
    char *err = NULL;
    int rc = wire == LLM_WIRE_OPENAI ? llm_openai_parse(whole, strlen(whole), 1 << 20, "fallback", &want, &err)
                                     : llm_anthropic_parse(whole, strlen(whole), 1 << 20, "fallback", &want, &err);
    bool same = rc == 0 && json_equal(got, want);
    if (!same) {
        char *a = json_dump(got, JSON_COMPACT, NULL), *b = want ? json_dump(want, JSON_COMPACT, NULL) : xstrdup(err);
        fprintf(stderr, "test_llm_stream: got  %s\n                 want %s\n", a, b);
        free(a);
        free(b);
    }
    free(err);
    json_free(want);
    return same;
}

TEST(llm_stream_openai_rebuilds_the_whole_reply)
{
    const char *sse =
        "data: {\"id\":\"c1\",\"model\":\"m1\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"Hel\"}}]}\n\n"
        "data: not json at all\n\n"
        "data: {\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"lo\"}}]}\n\n"
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"t1\",\"function\":{\"name\":\"add\",\"arguments\":\"{\\\"a\\\":\"}}]}}]}\n\n"
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"1}\"}}]}}]}\n\n"
        "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\n"
        "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":9,\"completion_tokens\":4,\"prompt_tokens_details\":{\"cached_tokens\":6}}}\n\n"
        "data: [DONE]\n\n";
    const char *whole = "{\"id\":\"c1\",\"model\":\"m1\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"Hello\","
                        "\"tool_calls\":[{\"id\":\"t1\",\"type\":\"function\",\"function\":{\"name\":\"add\",\"arguments\":\"{\\\"a\\\":1}\"}}]},"
                        "\"finish_reason\":\"tool_calls\"}],\"usage\":{\"prompt_tokens\":9,\"completion_tokens\":4,"
                        "\"prompt_tokens_details\":{\"cached_tokens\":6}}}";
    deltas d = {0};
    char *err = NULL;
    json_t *got = streamed(LLM_WIRE_OPENAI, sse, &d, &err);
    CHECK(got && !err);
    CHECK_STR(d.text.data, "Hello");
    CHECK(d.n == 2);
    CHECK(same_as_whole(got, LLM_WIRE_OPENAI, whole));
    CHECK_STR(json_string_value(json_object_get(got, "id")), "c1");
    CHECK(json_number_value(json_object_get(json_object_get(got, "usage"), "cacheReadTokens")) == 6);
    json_free(got);
    buf_free(&d.text);
}

TEST(llm_stream_openai_keeps_a_reasoning_models_reasoning_untold)
{
    /* reasoning_content deltas (DeepSeek's reasoner and other compatible servers) are kept as the
     * response's `reasoning`, as a whole reply's message.reasoning_content is, and are never told
     * as deltas: they are not the answer */
    const char *sse =
        "data: {\"id\":\"r1\",\"model\":\"deepseek-reasoner\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"reasoning_content\":\"First, \"}}]}\n\n"
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"reasoning_content\":\"think.\",\"content\":null}}]}\n\n"
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"42\"},\"finish_reason\":\"stop\"}]}\n\n"
        "data: [DONE]\n\n";
    const char *whole = "{\"id\":\"r1\",\"model\":\"deepseek-reasoner\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\","
                        "\"content\":\"42\",\"reasoning_content\":\"First, think.\"},\"finish_reason\":\"stop\"}]}";
    deltas d = {0};
    char *err = NULL;
    json_t *got = streamed(LLM_WIRE_OPENAI, sse, &d, &err);
    CHECK(got && !err);
    CHECK_STR(d.text.data, "42");
    CHECK(d.n == 1);
    CHECK(same_as_whole(got, LLM_WIRE_OPENAI, whole));
    CHECK_STR(json_string_value(json_object_get(got, "reasoning")), "First, think.");
    json_free(got);
    buf_free(&d.text);
    /* none, or an empty one: no key */
    const char *plain[] = {"{\"choices\":[{\"message\":{\"content\":\"a\"}}]}",
                           "{\"choices\":[{\"message\":{\"content\":\"a\",\"reasoning_content\":\"\"}}]}",
                           "{\"choices\":[{\"message\":{\"content\":\"a\",\"reasoning_content\":7}}]}"};
    for (int i = 0; i < 3; i++) {
        json_t *out = NULL;
        CHECK(llm_openai_parse(plain[i], strlen(plain[i]), 1 << 20, "m", &out, &err) == 0);
        CHECK(json_object_get(out, "reasoning") == NULL);
        json_free(out);
    }
}

TEST(llm_stream_anthropic_rebuilds_the_whole_reply)
{
    const char *sse =
        "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\","
        "\"model\":\"claude-x\",\"content\":[],\"stop_reason\":null,\"usage\":{\"input_tokens\":12,\"output_tokens\":1,"
        "\"cache_read_input_tokens\":8,\"cache_creation_input_tokens\":3}}}\n\n"
        "event: ping\ndata: {\"type\":\"ping\"}\n\n"
        "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n"
        "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Hi \"}}\n\n"
        "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"there\"}}\n\n"
        "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n"
        "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"tool_use\",\"id\":\"tu1\",\"name\":\"look\",\"input\":{}}}\n\n"
        "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"q\\\": \"}}\n\n"
        "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"\\\"x\\\"}\"}}\n\n"
        "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\"},\"usage\":{\"output_tokens\":20}}\n\n"
        "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";
    const char *whole = "{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-x\",\"content\":["
                        "{\"type\":\"text\",\"text\":\"Hi there\"},{\"type\":\"tool_use\",\"id\":\"tu1\",\"name\":\"look\",\"input\":{\"q\":\"x\"}}],"
                        "\"stop_reason\":\"tool_use\",\"usage\":{\"input_tokens\":12,\"output_tokens\":20,"
                        "\"cache_read_input_tokens\":8,\"cache_creation_input_tokens\":3}}";
    deltas d = {0};
    char *err = NULL;
    json_t *got = streamed(LLM_WIRE_ANTHROPIC, sse, &d, &err);
    CHECK(got && !err);
    CHECK_STR(d.text.data, "Hi there");
    CHECK(same_as_whole(got, LLM_WIRE_ANTHROPIC, whole));
    const json_t *u = json_object_get(got, "usage");
    CHECK(json_number_value(json_object_get(u, "cacheReadTokens")) == 8);
    CHECK(json_number_value(json_object_get(u, "cacheCreationTokens")) == 3);
    CHECK_STR(json_string_value(json_object_get(got, "id")), "msg_1");
    json_free(got);
    buf_free(&d.text);
}

TEST(llm_stream_anthropic_deltas_are_the_content_whatever_the_block_types)
{
    /* a block first started as another type, then started again as text: its text is not content
     * (the content is made of text blocks), so it is not told as a delta either (found by
     * fuzz_llm_stream: the deltas and the recorded content differed) */
    const char *sse =
        "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"model\":\"c\",\"usage\":{}}}\n\n"
        "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"thinking\",\"text\":\"a\"}}\n\n"
        "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"hidden\"}}\n\n"
        "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"text\",\"text\":\"shown \"}}\n\n"
        "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"text_delta\",\"text\":\"too\"}}\n\n"
        "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":2}}\n\n"
        "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";
    deltas d = {0};
    char *err = NULL;
    json_t *got = streamed(LLM_WIRE_ANTHROPIC, sse, &d, &err);
    CHECK(got && !err);
    CHECK_STR(d.text.data, "shown too");
    CHECK_STR(json_string_value(json_object_get(got, "content")), "shown too");
    json_free(got);
    free(err);
    buf_free(&d.text);
}

TEST(llm_stream_errors_are_clear)
{
    struct { llm_wire wire; const char *sse, *want; } cases[] = {
        {LLM_WIRE_OPENAI, "data: garbage\n\ndata: [DONE]\n\n", "the stream ended before any event that parses"},
        {LLM_WIRE_OPENAI, "data: {\"error\":{\"message\":\"overloaded\"}}\n\n", "the stream reports an error: overloaded"},
        {LLM_WIRE_ANTHROPIC, "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n",
         "the stream reports an error: Overloaded"},
        {LLM_WIRE_ANTHROPIC, "data: {\"type\":\"ping\"}\n\n", "the stream has no message_start event"},
        {LLM_WIRE_ANTHROPIC,
         "data: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"model\":\"c\",\"usage\":{}}}\n\n"
         "data: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"n\",\"input\":{}}}\n\n"
         "data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{oops\"}}\n\n"
         "data: {\"type\":\"message_stop\"}\n\n",
         "tool call \"n\" has streamed input that is not valid JSON"},
        {LLM_WIRE_OPENAI, "data: {\"id\":\"c\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"cut \"}}]}\n\n",
         "the stream ended before the reply was complete"},
        {LLM_WIRE_ANTHROPIC,
         "data: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"model\":\"c\",\"usage\":{}}}\n\n"
         "data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"cut\"}}\n\n",
         "the stream ended before the reply was complete"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        deltas d = {0};
        char *err = NULL;
        json_t *got = streamed(cases[i].wire, cases[i].sse, &d, &err);
        CHECK(!got && err);
        bool ok = strncmp(err, cases[i].want, strlen(cases[i].want)) == 0;
        if (!ok) fprintf(stderr, "test_llm_stream: got \"%s\", want \"%s…\"\n", err, cases[i].want);
        free(err);
        buf_free(&d.text);
        CHECK(ok);
    }
}

TEST(llm_model_names_aliases_and_openrouter_slugs)
{
    CHECK_STR(llm_anthropic_alias("claude-sonnet"), "claude-sonnet-4-6");
    CHECK_STR(llm_anthropic_alias("claude-haiku"), "claude-haiku-4-5");
    CHECK_STR(llm_anthropic_alias("claude-3-5-haiku"), "claude-3-5-haiku"); /* named models are sent as named */
    CHECK_STR(llm_anthropic_alias("claude-opus-4-1"), "claude-opus-4-1");
    struct { const char *in, *want; } slugs[] = {
        {"claude-sonnet-4-6", "anthropic/claude-sonnet-4.6"}, {"claude-opus", "anthropic/claude-opus-4.7"},
        {"claude-sonnet-4-5-20250929", "anthropic/claude-sonnet-4-5.20250929"}, {"gpt-4o", "openai/gpt-4o"},
        {"o3-mini", "openai/o3-mini"}, {"meta-llama/llama-3-70b", "meta-llama/llama-3-70b"}, {"mistral-large", "mistral-large"},
    };
    for (size_t i = 0; i < sizeof slugs / sizeof slugs[0]; i++) {
        char *s = llm_openrouter_slug(slugs[i].in);
        bool ok = !strcmp(s, slugs[i].want);
        if (!ok) fprintf(stderr, "slug(%s) = %s, want %s\n", slugs[i].in, s, slugs[i].want);
        free(s);
        CHECK(ok);
    }
}
