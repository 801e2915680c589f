/* test_context_request.c — the context request builder (host/context_request.c) on its own: bad
 * segments are errors naming them, the breakpoint and automatic marks land where the original puts
 * them, the neutral request splits tool results and carries the marks, and the Anthropic body keeps
 * at most four cache_control marks (the latest). */
#include "unit.h"
#include "host/context_request.h"
#include "host/llm_internal.h"
#include "util/buf.h"
#include "util/json.h"

#include <stdlib.h>

static json_t *parse(const char *text)
{
    json_t *v = json_parse(text, strlen(text), NULL, NULL);
    if (!v) abort();
    return v;
}

static char *build_error(const char *segments)
{
    json_t *segs = parse(segments);
    char *err = NULL;
    json_t *orig = context_original_request(segs, NULL, NULL, NULL, false, NULL, true, &err);
    json_free(orig);
    json_free(segs);
    return err;
}

TEST(context_bad_segments_are_errors_naming_them)
{
    char *err = build_error("[{\"kind\":\"user\",\"text\":\"a\"},{\"kind\":\"video\"}]");
    CHECK_STR(err, "unknown context segment kind `video`");
    free(err);
    err = build_error("[{\"kind\":\"message\"}]");
    CHECK(err && strstr(err, "segment 0 (message) is missing `message`"));
    free(err);
    err = build_error("[{\"kind\":\"message\",\"message\":{\"role\":\"user\",\"content\":[{\"type\":\"image\"}]}}]");
    CHECK(err && strstr(err, "invalid context message segment (segment 0): block 0"));
    free(err);
    err = build_error("[{\"kind\":\"system\",\"text\":\"s\"}]");
    CHECK_STR(err, "chidori.context prompt requires at least one user turn (add .user(...))");
    free(err);
    err = build_error("{\"kind\":\"user\"}");
    CHECK(err && strstr(err, "must be an array"));
    free(err);
    buf b = {0};
    buf_putc(&b, '[');
    for (int i = 0; i <= CONTEXT_MAX_SEGMENTS; i++) buf_puts(&b, i ? ",{\"kind\":\"user\"}" : "{\"kind\":\"user\"}");
    buf_putc(&b, ']');
    err = build_error(b.data);
    buf_free(&b);
    CHECK(err && strstr(err, "compact() it"));
    free(err);
}

TEST(context_breakpoints_and_automatic_marks)
{
    /* a breakpoint before any message marks the registry tools head, not the system head */
    json_t *segs = parse("[{\"kind\":\"system\",\"text\":\"s\"},{\"kind\":\"tools\",\"names\":[\"a__b\"],\"schemas\":[]},"
                         "{\"kind\":\"cacheBreakpoint\",\"ttl\":\"1h\"},{\"kind\":\"user\",\"text\":\"u\"}]");
    json_t *registry = parse("[{\"name\":\"a__b\",\"description\":\"d\",\"parameters\":{\"type\":\"object\"}}]");
    json_t *opts = parse("{}");
    char *err = NULL;
    json_t *orig = context_original_request(segs, NULL, registry, opts, true, NULL, true, &err);
    CHECK(orig && !err);
    const json_t *cache = json_object_get(orig, "cache");
    CHECK_STR(json_string_value(json_object_get(cache, "tools")), "1h");
    CHECK_STR(json_string_value(json_object_get(cache, "system")), "5m");
    /* one message, but tools: the newest message is marked */
    const json_t *msgs = json_object_get(orig, "messages");
    CHECK_STR(json_string_value(json_object_get(msgs->u.array.items[0], "cache_control")), "5m");
    json_free(orig);
    json_free(opts);
    /* cache:false: no automatic mark, the author's stays */
    opts = parse("{\"cache\":false}");
    orig = context_original_request(segs, NULL, registry, opts, true, NULL, true, &err);
    CHECK(orig && json_object_get(json_object_get(orig, "cache"), "system")->type == JSON_NULL);
    CHECK_STR(json_string_value(json_object_get(json_object_get(orig, "cache"), "tools")), "1h");
    CHECK(!json_object_get(json_object_get(orig, "messages")->u.array.items[0], "cache_control"));
    json_free(orig);
    json_free(opts);
    json_free(registry);
    json_free(segs);
}

TEST(context_neutral_request_and_anthropic_marks)
{
    /* five breakpoints on messages + system + tools: the body keeps the latest four */
    json_t *args = parse(
        "{\"__mode\":\"prompt\",\"__context\":[{\"kind\":\"system\",\"text\":\"s\"},"
        "{\"kind\":\"tools\",\"names\":[],\"schemas\":[{\"name\":\"h\",\"description\":\"d\"}]},"
        "{\"kind\":\"user\",\"text\":\"1\"},{\"kind\":\"cacheBreakpoint\"},{\"kind\":\"assistant\",\"text\":\"2\"},"
        "{\"kind\":\"cacheBreakpoint\"},{\"kind\":\"user\",\"text\":\"3\"},{\"kind\":\"cacheBreakpoint\"},"
        "{\"kind\":\"message\",\"message\":{\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"4\"},"
        "{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"h\",\"input\":{}}]}},"
        "{\"kind\":\"message\",\"message\":{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"see\"},"
        "{\"type\":\"tool_result\",\"tool_use_id\":\"t\",\"content\":\"r\",\"is_error\":true}]}}]}");
    char *err = NULL;
    json_t *req = context_llm_request(args, &err);
    CHECK(req && !err);
    CHECK(llm_validate_request(req, &err) == 0);
    const json_t *msgs = json_object_get(req, "messages");
    CHECK(msgs->u.array.len == 6); /* 1, 2, 3, 4+call, "see", the tool result */
    CHECK_STR(json_string_value(json_object_get(msgs->u.array.items[5], "role")), "tool");
    CHECK(json_object_get(msgs->u.array.items[5], "isError")->type == JSON_TRUE);
    CHECK(json_is_array(json_object_get(msgs->u.array.items[3], "toolCalls")));
    CHECK_STR(json_string_value(json_object_get(req, "cacheSystem")), "5m");
    CHECK_STR(json_string_value(json_object_get(req, "cacheTools")), "5m");
    json_t *body = llm_anthropic_body(req, "claude-x");
    size_t marks = 0;
    const json_t *tools = json_object_get(body, "tools");
    bool tool_marked = json_object_get(tools->u.array.items[0], "cache_control") != NULL;
    const json_t *bm = json_object_get(body, "messages");
    for (size_t i = 0; i < bm->u.array.len; i++) {
        const json_t *c = json_object_get(bm->u.array.items[i], "content");
        for (size_t k = 0; json_is_array(c) && k < c->u.array.len; k++)
            if (json_object_get(c->u.array.items[k], "cache_control")) marks++;
    }
    const json_t *sys = json_object_get(body, "system");
    bool sys_marked = json_is_array(sys) && json_object_get(sys->u.array.items[0], "cache_control");
    /* 3 author marks + the newest message + system + tools = 6: the two earliest (tools, system) go */
    CHECK(!tool_marked && !sys_marked && marks == 4);
    json_free(body);
    json_free(req);
    json_free(args);
}
