/* test_llm.c — the LLM providers (src/host/llm*.c) against tests/providers/fake_llm.py: the exact
 * requests each wire format sends (path, auth headers, model, messages, tools, tool results),
 * the answers mapped back (text, tool calls, usage, format "json"), and every failure a provider
 * can cause (HTTP errors, invalid JSON, missing fields, timeouts, oversize bodies, refused
 * connections) ending as a clear error that never contains an API key. */
#define _GNU_SOURCE
#include "unit.h"
#include "host/llm.h"
#include "host/llm_internal.h"
#include "host/llm_cache.h"
#include "host/llm_pace.h"
#include "util/clock.h"
#include "util/buf.h"
#include "settings/saved_keys.h"
#include "settings/settings.h"

#include <arpa/inet.h>
#include <curl/curl.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define OPENAI_KEY "sk-test-openai-0123456789abcdef"
#define ANTHROPIC_KEY "sk-ant-test-fedcba9876543210"

/* Fail the test with the error text when err is set. */
#define CHECK_OK(err)                                                            \
    do {                                                                         \
        if (err) {                                                               \
            char m_[600];                                                        \
            snprintf(m_, sizeof m_, "unexpected error: %.500s", err);            \
            free(err);                                                           \
            unit_fail(__FILE__, __LINE__, m_);                                   \
            return;                                                              \
        }                                                                        \
    } while (0)

/* JSON written with ' for " (and ` for \") so the tests stay readable. */
static json_t *J(const char *s)
{
    buf b = {0};
    for (; *s; s++) {
        if (*s == '\'') buf_putc(&b, '"');
        else if (*s == '`') buf_puts(&b, "\\\"");
        else buf_putc(&b, *s);
    }
    json_error err;
    json_t *v = json_parse(b.data, b.len, NULL, &err);
    if (!v) fprintf(stderr, "test_llm: bad test JSON (%s): %s\n", err.message, b.data);
    buf_free(&b);
    return v;
}

typedef struct fake {
    pid_t pid;
    int in_fd; /* the server's stdin: closing it stops the server */
    int port;
    char script[64];
    char openai_base[64], anthropic_base[64];
} fake;

static int fake_start(fake *f, const char *script_json)
{
    memset(f, 0, sizeof *f);
    snprintf(f->script, sizeof f->script, "/tmp/chidori-fake-llm-XXXXXX");
    int fd = mkstemp(f->script);
    if (fd < 0) return -1;
    json_t *s = J(script_json);
    char *text = json_dump(s, JSON_COMPACT, NULL);
    json_free(s);
    ssize_t w = write(fd, text, strlen(text));
    free(text);
    close(fd);
    if (w <= 0) return -1;
    int in[2], out[2];
    if (pipe2(in, O_CLOEXEC) != 0) return -1;
    if (pipe2(out, O_CLOEXEC) != 0) return -1;
    f->pid = fork();
    if (f->pid == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        execlp("python3", "python3", "tests/providers/fake_llm.py", f->script, (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    f->in_fd = in[1];
    char line[32];
    size_t n = 0;
    while (n < sizeof line - 1) {
        ssize_t r = read(out[0], line + n, 1);
        if (r <= 0 || line[n] == '\n') break;
        n++;
    }
    line[n] = '\0';
    close(out[0]);
    f->port = atoi(line);
    snprintf(f->openai_base, sizeof f->openai_base, "http://127.0.0.1:%d/v1", f->port);
    snprintf(f->anthropic_base, sizeof f->anthropic_base, "http://127.0.0.1:%d", f->port);
    return f->port > 0 ? 0 : -1;
}

static void fake_stop(fake *f)
{
    if (f->in_fd > 0) close(f->in_fd);
    if (f->pid > 0) {
        kill(f->pid, SIGTERM);
        waitpid(f->pid, NULL, 0);
    }
    unlink(f->script);
    f->pid = 0;
    f->in_fd = 0;
}

static size_t collect(char *p, size_t s, size_t n, void *ud)
{
    buf_append(ud, p, s * n);
    return s * n;
}

/* GET /__requests: {"counts": {...}, "requests": [{method, path, format, headers, body}]} */
static json_t *fake_requests(const fake *f)
{
    char url[96];
    snprintf(url, sizeof url, "http://127.0.0.1:%d/__requests", f->port);
    buf b = {0};
    CURL *c = curl_easy_init();
    curl_easy_setopt(c, CURLOPT_URL, url);
    curl_easy_setopt(c, CURLOPT_PROXY, "");
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, collect);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &b);
    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, 5000L);
    CURLcode rc = curl_easy_perform(c);
    curl_easy_cleanup(c);
    json_t *v = rc == CURLE_OK && b.data ? json_parse(b.data, b.len, NULL, NULL) : NULL;
    buf_free(&b);
    return v;
}

static const json_t *nth_request(const json_t *all, size_t i)
{
    const json_t *reqs = json_object_get(all, "requests");
    return json_is_array(reqs) && i < reqs->u.array.len ? reqs->u.array.items[i] : NULL;
}

static const char *header(const json_t *req, const char *name)
{
    return json_string_value(json_object_get(json_object_get(req, "headers"), name));
}

static llm_config fake_config(const fake *f)
{
    llm_config cfg = {0};
    cfg.openai_api_key = OPENAI_KEY;
    cfg.openai_base_url = f->openai_base;
    cfg.anthropic_api_key = ANTHROPIC_KEY;
    cfg.anthropic_base_url = f->anthropic_base;
    cfg.timeout_ms = 10000;
    cfg.max_response_bytes = 1 << 20;
    return cfg;
}

static bool json_eq_text(const json_t *v, const char *want)
{
    json_t *w = J(want);
    bool eq = json_equal(v, w);
    if (!eq) {
        char *got = v ? json_dump(v, JSON_COMPACT, NULL) : xstrdup("(null)");
        char *exp = w ? json_dump(w, JSON_COMPACT, NULL) : xstrdup("(bad)");
        fprintf(stderr, "test_llm: got  %s\n          want %s\n", got, exp);
        free(got);
        free(exp);
    }
    json_free(w);
    return eq;
}

/* Run one request; returns the response (or NULL with *error). */
static json_t *complete(const llm_config *cfg, const char *request, char **error)
{
    json_t *req = J(request);
    json_t *resp = NULL;
    *error = NULL;
    if (llm_complete(cfg, req, &resp, error) != 0) resp = NULL;
    json_free(req);
    return resp;
}

static long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000L + ts.tv_nsec / 1000000;
}

static const char TOOL_ADD[] =
    "{'name': 'add', 'description': 'Adds two numbers', 'parameters': {'type': 'object', 'properties': "
    "{'a': {'type': 'number'}, 'b': {'type': 'number'}}, 'required': ['a', 'b']}}";

TEST(llm_openai_text_reply_and_exact_request)
{
    fake f;
    CHECK(fake_start(&f, "[{'text': 'Hello there', 'usage': {'input': 12, 'output': 5}, 'model': 'gpt-4o-2024'}]") == 0);
    llm_config cfg = fake_config(&f);
    char *req = xasprintf("{'messages': [{'role': 'user', 'content': 'Hi'}], 'system': 'Be brief', 'model': 'gpt-4o',"
                          " 'maxTokens': 100, 'temperature': 0.5, 'tools': [%s]}", TOOL_ADD);
    char *err;
    json_t *resp = complete(&cfg, req, &err);
    free(req);
    json_t *all = fake_requests(&f);
    fake_stop(&f);
    CHECK_OK(err);
    CHECK(resp != NULL);
    CHECK(json_eq_text(resp, "{'content': 'Hello there', 'toolCalls': [], 'stopReason': 'stop', 'usage': "
                             "{'inputTokens': 12, 'outputTokens': 5}, 'model': 'gpt-4o-2024', 'id': 'chatcmpl-fake', 'provider': 'openai'}"));
    json_free(resp);
    CHECK(json_eq_text(json_object_get(all, "counts"), "{'openai': 1, 'anthropic': 0, 'other': 0}"));
    const json_t *r = nth_request(all, 0);
    CHECK_STR(json_string_value(json_object_get(r, "path")), "/v1/chat/completions");
    CHECK_STR(header(r, "authorization"), "Bearer " OPENAI_KEY);
    CHECK_STR(header(r, "content-type"), "application/json");
    char *want = xasprintf(
        "{'model': 'gpt-4o', 'messages': [{'role': 'system', 'content': 'Be brief'}, {'role': 'user', 'content': 'Hi'}],"
        " 'max_tokens': 100, 'temperature': 0.5, 'tools': [{'type': 'function', 'function': %s}]}",
        TOOL_ADD);
    bool ok = json_eq_text(json_object_get(r, "body"), want);
    free(want);
    json_free(all);
    CHECK(ok);
}

TEST(llm_anthropic_text_reply_and_exact_request)
{
    fake f;
    CHECK(fake_start(&f, "[{'text': 'Bonjour', 'usage': {'input': 30, 'output': 2}, 'model': 'claude-3-5-haiku-x'}]") == 0);
    llm_config cfg = fake_config(&f);
    char *req = xasprintf("{'messages': [{'role': 'user', 'content': 'Hi'}], 'system': 'Be brief', "
                          "'model': 'claude-3-5-haiku', 'maxTokens': 100, 'temperature': 0.5, 'tools': [%s]}", TOOL_ADD);
    char *err;
    json_t *resp = complete(&cfg, req, &err);
    free(req);
    json_t *all = fake_requests(&f);
    fake_stop(&f);
    CHECK_OK(err);
    CHECK(json_eq_text(resp, "{'content': 'Bonjour', 'toolCalls': [], 'stopReason': 'end_turn', 'usage': "
                             "{'inputTokens': 30, 'outputTokens': 2}, 'model': 'claude-3-5-haiku-x', 'id': 'msg_fake', 'provider': 'anthropic'}"));
    json_free(resp);
    CHECK(json_eq_text(json_object_get(all, "counts"), "{'openai': 0, 'anthropic': 1, 'other': 0}"));
    const json_t *r = nth_request(all, 0);
    CHECK_STR(json_string_value(json_object_get(r, "path")), "/v1/messages");
    CHECK_STR(header(r, "x-api-key"), ANTHROPIC_KEY);
    CHECK_STR(header(r, "anthropic-version"), "2023-06-01");
    CHECK(header(r, "authorization") == NULL);
    /* tools: {name, description, input_schema} */
    json_t *tool = J(TOOL_ADD);
    json_t *schema = json_copy(json_object_get(tool, "parameters"));
    json_t *want_tool = json_object();
    json_object_set(want_tool, "name", json_string("add"));
    json_object_set(want_tool, "description", json_string("Adds two numbers"));
    json_object_set(want_tool, "input_schema", schema);
    json_free(tool);
    char *tool_text = json_dump(want_tool, 0, NULL);
    json_free(want_tool);
    for (char *p = tool_text; *p; p++)
        if (*p == '"') *p = '\'';
    char *want = xasprintf("{'model': 'claude-3-5-haiku', 'max_tokens': 100, 'system': 'Be brief', 'messages': "
                           "[{'role': 'user', 'content': 'Hi'}], 'temperature': 0.5, 'tools': [%s]}", tool_text);
    free(tool_text);
    bool ok = json_eq_text(json_object_get(r, "body"), want);
    free(want);
    json_free(all);
    CHECK(ok);
}

TEST(llm_openai_tool_call_and_tool_result_follow_up)
{
    fake f;
    CHECK(fake_start(&f, "[{'toolCalls': [{'id': 'call_1', 'name': 'add', 'input': {'a': 1, 'b': 2}}]}, {'text': '3'}]") == 0);
    llm_config cfg = fake_config(&f);
    char *req = xasprintf("{'messages': [{'role': 'user', 'content': 'What is 1+2?'}], 'model': 'gpt-4o', 'tools': [%s]}", TOOL_ADD);
    char *err;
    json_t *resp = complete(&cfg, req, &err);
    free(req);
    CHECK_OK(err);
    CHECK(json_eq_text(json_object_get(resp, "toolCalls"), "[{'id': 'call_1', 'name': 'add', 'input': {'a': 1, 'b': 2}}]"));
    CHECK_STR(json_string_value(json_object_get(resp, "stopReason")), "tool_calls");
    CHECK_STR(json_string_value(json_object_get(resp, "content")), "");
    json_free(resp);

    req = xasprintf("{'messages': [{'role': 'user', 'content': 'What is 1+2?'},"
                    " {'role': 'assistant', 'content': '', 'toolCalls': [{'id': 'call_1', 'name': 'add', 'input': {'a': 1, 'b': 2}}]},"
                    " {'role': 'tool', 'toolCallId': 'call_1', 'content': '3'}], 'model': 'gpt-4o', 'tools': [%s]}", TOOL_ADD);
    resp = complete(&cfg, req, &err);
    free(req);
    json_t *all = fake_requests(&f);
    fake_stop(&f);
    CHECK_OK(err);
    CHECK_STR(json_string_value(json_object_get(resp, "content")), "3");
    json_free(resp);
    const json_t *r = nth_request(all, 1);
    bool ok = json_eq_text(json_object_get(json_object_get(r, "body"), "messages"),
                           "[{'role': 'user', 'content': 'What is 1+2?'},"
                           " {'role': 'assistant', 'content': null, 'tool_calls': [{'id': 'call_1', 'type': 'function',"
                           "   'function': {'name': 'add', 'arguments': '{`a`:1,`b`:2}'}}]},"
                           " {'role': 'tool', 'tool_call_id': 'call_1', 'content': '3'}]");
    json_free(all);
    CHECK(ok);
}

TEST(llm_anthropic_tool_calls_and_merged_tool_results)
{
    fake f;
    CHECK(fake_start(&f, "[{'text': 'Let me add.', 'toolCalls': [{'id': 'toolu_1', 'name': 'add', 'input': {'a': 1, 'b': 2}},"
                         " {'id': 'toolu_2', 'name': 'add', 'input': {'a': 3, 'b': 4}}]}, {'text': '3 and 7'}]") == 0);
    llm_config cfg = fake_config(&f);
    char *req = xasprintf("{'messages': [{'role': 'user', 'content': 'Add both'}], 'model': 'claude-x', 'tools': [%s]}", TOOL_ADD);
    char *err;
    json_t *resp = complete(&cfg, req, &err);
    free(req);
    CHECK_OK(err);
    CHECK_STR(json_string_value(json_object_get(resp, "content")), "Let me add.");
    CHECK_STR(json_string_value(json_object_get(resp, "stopReason")), "tool_use");
    CHECK(json_eq_text(json_object_get(resp, "toolCalls"), "[{'id': 'toolu_1', 'name': 'add', 'input': {'a': 1, 'b': 2}},"
                                                          " {'id': 'toolu_2', 'name': 'add', 'input': {'a': 3, 'b': 4}}]"));
    json_free(resp);

    req = xasprintf("{'messages': [{'role': 'user', 'content': 'Add both'},"
                    " {'role': 'assistant', 'content': 'Let me add.', 'toolCalls': [{'id': 'toolu_1', 'name': 'add', 'input': {'a': 1, 'b': 2}},"
                    "   {'id': 'toolu_2', 'name': 'add', 'input': {'a': 3, 'b': 4}}]},"
                    " {'role': 'tool', 'toolCallId': 'toolu_1', 'content': '3'},"
                    " {'role': 'tool', 'toolCallId': 'toolu_2', 'content': {'sum': 7}, 'isError': true}],"
                    " 'model': 'claude-x', 'tools': [%s]}", TOOL_ADD);
    resp = complete(&cfg, req, &err);
    free(req);
    json_t *all = fake_requests(&f);
    fake_stop(&f);
    CHECK_OK(err);
    CHECK_STR(json_string_value(json_object_get(resp, "content")), "3 and 7");
    json_free(resp);
    const json_t *body = json_object_get(nth_request(all, 1), "body");
    bool ok = json_eq_text(json_object_get(body, "messages"),
                           "[{'role': 'user', 'content': 'Add both'},"
                           " {'role': 'assistant', 'content': [{'type': 'text', 'text': 'Let me add.'},"
                           "   {'type': 'tool_use', 'id': 'toolu_1', 'name': 'add', 'input': {'a': 1, 'b': 2}},"
                           "   {'type': 'tool_use', 'id': 'toolu_2', 'name': 'add', 'input': {'a': 3, 'b': 4}}]},"
                           " {'role': 'user', 'content': [{'type': 'tool_result', 'tool_use_id': 'toolu_1', 'content': '3'},"
                           "   {'type': 'tool_result', 'tool_use_id': 'toolu_2', 'content': '{`sum`:7}', 'is_error': true}]}]");
    ok = ok && json_eq_text(json_object_get(body, "max_tokens"), "4096");
    json_free(all);
    CHECK(ok);
}

TEST(llm_format_json_both_providers)
{
    fake f;
    CHECK(fake_start(&f, "[{'text': '{`ok`: true}'}, {'text': '\\u0060\\u0060\\u0060json\\n{`ok`: 1}\\n\\u0060\\u0060\\u0060'}, {'text': 'Sure! {`ok`: 1}'},"
                         " {'text': '{`a`: [1, 2', 'stopReason': 'max_tokens'}]") == 0);
    llm_config cfg = fake_config(&f);
    char *err;
    json_t *resp = complete(&cfg, "{'messages': [{'role': 'user', 'content': 'ok?'}], 'model': 'gpt-4o', 'format': 'json'}", &err);
    CHECK_OK(err);
    CHECK(json_eq_text(json_object_get(resp, "json"), "{'ok': true}"));
    CHECK_STR(json_string_value(json_object_get(resp, "content")), "{\"ok\": true}");
    json_free(resp);
    resp = complete(&cfg, "{'messages': [{'role': 'user', 'content': 'ok?'}], 'model': 'claude-x', 'format': 'json', 'system': 'S'}", &err);
    CHECK_OK(err);
    CHECK(json_eq_text(json_object_get(resp, "json"), "{'ok': 1}"));
    json_free(resp);
    resp = complete(&cfg, "{'messages': [{'role': 'user', 'content': 'ok?'}], 'model': 'claude-x', 'format': 'json'}", &err);
    CHECK(resp == NULL && err != NULL);
    CHECK(strstr(err, "anthropic: format \"json\": the reply is not valid JSON") == err);
    CHECK(strstr(err, "Sure!") != NULL);
    free(err);
    resp = complete(&cfg, "{'messages': [{'role': 'user', 'content': 'ok?'}], 'model': 'claude-x', 'format': 'json'}", &err);
    json_t *all = fake_requests(&f);
    fake_stop(&f);
    CHECK(resp == NULL && err != NULL);
    CHECK(strstr(err, "(the reply was cut off at maxTokens)") != NULL);
    free(err);
    const json_t *b0 = json_object_get(nth_request(all, 0), "body");
    CHECK(json_eq_text(json_object_get(b0, "response_format"), "{'type': 'json_object'}"));
    const json_t *sys = json_object_get(json_object_get(b0, "messages")->u.array.items[0], "content");
    CHECK(json_string_value(sys) && strstr(json_string_value(sys), "JSON"));
    const json_t *b1 = json_object_get(nth_request(all, 1), "body");
    const char *s1 = json_string_value(json_object_get(b1, "system"));
    CHECK(s1 && strncmp(s1, "S\n\n", 3) == 0 && strstr(s1, "JSON"));
    CHECK(json_object_get(b1, "response_format") == NULL);
    json_free(all);
}

TEST(llm_http_500_is_an_error_with_status_and_message)
{
    fake f;
    CHECK(fake_start(&f, "[{'status': 500, 'body': '{`error`: {`message`: `The server is overloaded`, `type`: `server_error`}}'},"
                         " {'status': 502, 'body': 'upstream\\nexploded'}]") == 0);
    llm_config cfg = fake_config(&f);
    char *err;
    json_t *resp = complete(&cfg, "{'messages': [{'role': 'user', 'content': 'x'}], 'model': 'gpt-4o'}", &err);
    CHECK(resp == NULL);
    CHECK_STR(err, "openai: HTTP 500: The server is overloaded");
    free(err);
    resp = complete(&cfg, "{'messages': [{'role': 'user', 'content': 'x'}], 'model': 'claude-x'}", &err);
    fake_stop(&f);
    CHECK(resp == NULL);
    CHECK_STR(err, "anthropic: HTTP 502: upstream exploded"); /* not a status worth a retry */
    free(err);
}

/* The atMs of the fake's i-th request. */
static double request_at(const json_t *all, size_t i)
{
    return json_number_value(json_object_get(nth_request(all, i), "atMs"));
}

typedef struct pace_call {
    const void *owner;
    long done;
} pace_call;

static void *pace_owned(void *arg)
{
    pace_call *c = arg;
    char *err = NULL;
    if (llm_pace_acquire(PACE_OPENROUTER, 600, "CHIDORI_OPENROUTER_RPM", c->owner, clock_monotonic_ms() + 60000, 0, NULL, &err) != 0) {
        free(err);
        c->done = -1;
        return NULL;
    }
    c->done = now_ms();
    return NULL;
}

static void *cancel_later(void *flag)
{
    usleep(150000);
    atomic_store((atomic_int *)flag, 1);
    return NULL;
}

static void gather_delta(void *ctx, const char *text, size_t len) { buf_append((buf *)ctx, text, len); }

/* A streamed call of cfg's Anthropic with its deltas gathered in *told. */
static json_t *complete_streamed(const llm_config *cfg, buf *told, char **error)
{
    json_t *req = J("{'messages': [{'role': 'user', 'content': 'x'}], 'model': 'claude-x'}");
    llm_stream st = {.delta = gather_delta, .ctx = told};
    json_t *resp = NULL;
    *error = NULL;
    if (llm_complete_stream(cfg, req, &st, &resp, error) != 0) resp = NULL;
    json_free(req);
    return resp;
}

#define SSE_START "event: message_start\\ndata: {`type`: `message_start`, `message`: {`id`: `msg_1`, `model`: `claude-x`, " \
                  "`stop_reason`: null, `usage`: {`input_tokens`: 1, `output_tokens`: 0}}}\\n\\n"
#define SSE_TEXT "event: content_block_start\\ndata: {`type`: `content_block_start`, `index`: 0, `content_block`: " \
                 "{`type`: `text`, `text`: ``}}\\n\\nevent: content_block_delta\\ndata: {`type`: `content_block_delta`, " \
                 "`index`: 0, `delta`: {`type`: `text_delta`, `text`: `Hel`}}\\n\\n"
#define SSE_ERROR(kind) "event: error\\ndata: {`type`: `error`, `error`: {`type`: `" kind "`, `message`: `Overloaded`}}\\n\\n"

TEST(llm_stream_overloaded_before_any_text_is_tried_again_and_after_text_is_not)
{
    /* Anthropic says it is overloaded (or rate-limited) in the stream, after its 200 and before
     * any text: tried again as a 529 would be, and only the second attempt's text is told */
    fake f;
    CHECK(fake_start(&f, "[{'sse': '" SSE_START SSE_ERROR("overloaded_error") "'}, {'sse': '" SSE_START SSE_ERROR("rate_limit_error") "'},"
                         " {'text': 'at last', 'pieces': 2}]") == 0);
    llm_config cfg = fake_config(&f);
    buf told = {0};
    char *err;
    json_t *resp = complete_streamed(&cfg, &told, &err);
    json_t *all = fake_requests(&f);
    fake_stop(&f);
    CHECK_OK(err);
    CHECK_STR(json_string_value(json_object_get(resp, "content")), "at last");
    CHECK(told.len == 7 && !memcmp(told.data, "at last", 7));
    CHECK(json_number_value(json_object_get(json_object_get(all, "counts"), "anthropic")) == 3);
    CHECK(request_at(all, 1) - request_at(all, 0) >= 490); /* the backoff: no retry header in a stream */
    json_free(resp);
    json_free(all);
    /* once text was told, the same error ends the call: a second attempt would tell it again */
    CHECK(fake_start(&f, "[{'sse': '" SSE_START SSE_TEXT SSE_ERROR("overloaded_error") "'}, {'text': 'never'}]") == 0);
    cfg = fake_config(&f);
    told.len = 0;
    resp = complete_streamed(&cfg, &told, &err);
    all = fake_requests(&f);
    fake_stop(&f);
    CHECK(resp == NULL);
    CHECK_STR(err, "anthropic: the stream reports an error: Overloaded");
    free(err);
    CHECK(told.len == 3 && !memcmp(told.data, "Hel", 3));
    CHECK(json_number_value(json_object_get(json_object_get(all, "counts"), "anthropic")) == 1);
    json_free(all);
    /* another kind of error is not refused for now */
    CHECK(fake_start(&f, "[{'sse': '" SSE_START SSE_ERROR("api_error") "'}, {'text': 'never'}]") == 0);
    cfg = fake_config(&f);
    resp = complete_streamed(&cfg, &told, &err);
    all = fake_requests(&f);
    fake_stop(&f);
    CHECK(resp == NULL && err != NULL);
    free(err);
    CHECK(json_number_value(json_object_get(json_object_get(all, "counts"), "anthropic")) == 1);
    json_free(all);
    buf_free(&told);
}

TEST(llm_refused_for_now_is_tried_again_after_the_wait_asked)
{
    /* 429 with Retry-After in seconds, 529 with retry-after-ms, 503 with an HTTP date already past
     * (the shortest wait, 500 ms), then the reply: one call, four attempts */
    fake f;
    CHECK(fake_start(&f, "[{'status': 429, 'json': {'error': {'message': 'slow down'}}, 'headers': {'Retry-After': '0.6'}},"
                         " {'status': 529, 'body': 'overloaded', 'headers': {'retry-after-ms': '700'}},"
                         " {'status': 503, 'body': 'later', 'headers': {'Retry-After': 'Sun, 06 Nov 1994 08:49:37 GMT'}},"
                         " {'text': 'at last'}]") == 0);
    llm_config cfg = fake_config(&f);
    char *err;
    json_t *resp = complete(&cfg, "{'messages': [{'role': 'user', 'content': 'x'}], 'model': 'claude-x'}", &err);
    json_t *all = fake_requests(&f);
    fake_stop(&f);
    CHECK_OK(err);
    CHECK_STR(json_string_value(json_object_get(resp, "content")), "at last");
    json_free(resp);
    CHECK(json_number_value(json_object_get(json_object_get(all, "counts"), "anthropic")) == 4);
    double gap1 = request_at(all, 1) - request_at(all, 0), gap2 = request_at(all, 2) - request_at(all, 1),
           gap3 = request_at(all, 3) - request_at(all, 2);
    if (gap1 < 590 || gap2 < 690 || gap3 < 490 || gap1 > 3000 || gap2 > 3000 || gap3 > 3000)
        fprintf(stderr, "test_llm: gaps %.0f %.0f %.0f ms\n", gap1, gap2, gap3);
    CHECK(gap1 >= 590 && gap1 < 3000); /* Retry-After: 0.6 */
    CHECK(gap2 >= 690 && gap2 < 3000); /* retry-after-ms: 700 */
    CHECK(gap3 >= 490 && gap3 < 3000); /* a date in the past: the 500 ms floor */
    /* every attempt sent the same request */
    char *b0 = json_dump(json_object_get(nth_request(all, 0), "body"), JSON_COMPACT, NULL);
    char *b3 = json_dump(json_object_get(nth_request(all, 3), "body"), JSON_COMPACT, NULL);
    CHECK_STR(b0, b3);
    free(b0);
    free(b3);
    json_free(all);
}

TEST(llm_retries_stop_at_eight_attempts_and_at_the_calls_time)
{
    fake f;
    buf script = {0};
    buf_puts(&script, "[");
    for (int i = 0; i < 9; i++) buf_puts(&script, i ? ", {'status': 429, 'body': 'no', 'headers': {'Retry-After': '0'}}" : "{'status': 429, 'body': 'no', 'headers': {'Retry-After': '0'}}");
    buf_puts(&script, "]");
    CHECK(fake_start(&f, script.data) == 0);
    buf_free(&script);
    llm_config cfg = fake_config(&f);
    char *err;
    long t0 = now_ms();
    json_t *resp = complete(&cfg, "{'messages': [{'role': 'user', 'content': 'x'}], 'model': 'gpt-4o'}", &err);
    long took = now_ms() - t0;
    json_t *all = fake_requests(&f);
    fake_stop(&f);
    CHECK(resp == NULL);
    CHECK_STR(err, "openai: HTTP 429: no (after 8 attempts)");
    free(err);
    CHECK(json_number_value(json_object_get(json_object_get(all, "counts"), "openai")) == 8);
    CHECK(took >= 7 * 490 && took < 10000); /* seven waits of the 500 ms floor */
    json_free(all);

    /* a wait past the call's time is not started: the error says so at once */
    CHECK(fake_start(&f, "[{'status': 429, 'body': 'busy', 'headers': {'Retry-After': '30'}}, {'text': 'never'}]") == 0);
    cfg = fake_config(&f);
    cfg.timeout_ms = 3000;
    t0 = now_ms();
    resp = complete(&cfg, "{'messages': [{'role': 'user', 'content': 'x'}], 'model': 'claude-x'}", &err);
    took = now_ms() - t0;
    all = fake_requests(&f);
    fake_stop(&f);
    CHECK(resp == NULL);
    CHECK_STR(err, "anthropic: HTTP 429: busy (after 1 attempt: the next would start 30000 ms from now, after the "
                   "call's time (CHIDORI_LLM_TIMEOUT_MS) runs out)");
    free(err);
    CHECK(took < 2000);
    CHECK(json_number_value(json_object_get(json_object_get(all, "counts"), "anthropic")) == 1);
    json_free(all);

    /* a retry is started only with time left for it: 2.5 s of a 3 s call leaves too little */
    CHECK(fake_start(&f, "[{'status': 503, 'body': 'later', 'headers': {'Retry-After': '2.5'}}, {'text': 'never'}]") == 0);
    cfg = fake_config(&f);
    cfg.timeout_ms = 3000;
    resp = complete(&cfg, "{'messages': [{'role': 'user', 'content': 'x'}], 'model': 'gpt-4o'}", &err);
    all = fake_requests(&f);
    fake_stop(&f);
    CHECK(resp == NULL);
    CHECK(err && strstr(err, "openai: HTTP 503: later (after 1 attempt: the next would start 2500 ms from now"));
    free(err);
    CHECK(json_number_value(json_object_get(json_object_get(all, "counts"), "openai")) == 1);
    json_free(all);

    /* an attempt after a refusal that ends otherwise keeps the refusal in its error */
    CHECK(fake_start(&f, "[{'status': 429, 'json': {'error': {'message': 'slow down'}}, 'headers': {'Retry-After': '0'}},"
                         " {'delayMs': 5000, 'text': 'late'}]") == 0);
    cfg = fake_config(&f);
    cfg.timeout_ms = 3000;
    resp = complete(&cfg, "{'messages': [{'role': 'user', 'content': 'x'}], 'model': 'gpt-4o'}", &err);
    fake_stop(&f);
    CHECK(resp == NULL);
    CHECK(err && !strncmp(err, "openai: request timed out after 3000 ms", 39) &&
          strstr(err, " (attempt 2; refused before it: HTTP 429: slow down)"));
    free(err);
}

TEST(llm_a_cancelled_run_ends_its_call_in_flight)
{
    fake f;
    CHECK(fake_start(&f, "[{'delayMs': 4000, 'text': 'late'}]") == 0);
    llm_config cfg = fake_config(&f);
    atomic_int cancel = 0;
    cfg.cancel = &cancel;
    pthread_t canceller;
    CHECK(pthread_create(&canceller, NULL, cancel_later, &cancel) == 0);
    char *err;
    long t0 = now_ms();
    json_t *resp = complete(&cfg, "{'messages': [{'role': 'user', 'content': 'x'}], 'model': 'claude-x'}", &err);
    long took = now_ms() - t0;
    pthread_join(canceller, NULL);
    fake_stop(&f);
    CHECK(resp == NULL);
    CHECK_STR(err, "anthropic: the run was cancelled during the call");
    free(err);
    if (took >= 1600) fprintf(stderr, "test_llm: the cancelled call took %ld ms\n", took);
    CHECK(took < 1600); /* libcurl asks at least once a second */
}

TEST(llm_retry_wait_reads_the_providers_headers_with_bounds)
{
    CHECK(llm_pace_retry_wait_ms(NULL, NULL, 1, 0) == 2000); /* no header: 2^attempt s */
    CHECK(llm_pace_retry_wait_ms(NULL, NULL, 3, 0) == 8000);
    CHECK(llm_pace_retry_wait_ms(NULL, NULL, 7, 0) == 64000); /* capped at 64 s */
    CHECK(llm_pace_retry_wait_ms(NULL, "5", 1, 0) == 5000);
    CHECK(llm_pace_retry_wait_ms(NULL, " 1.5 ", 1, 0) == 1500);
    CHECK(llm_pace_retry_wait_ms(NULL, "0", 1, 0) == 500); /* the floor */
    CHECK(llm_pace_retry_wait_ms("250", "9", 1, 0) == 500);
    CHECK(llm_pace_retry_wait_ms("1200", "9", 1, 0) == 1200); /* retry-after-ms wins */
    CHECK(llm_pace_retry_wait_ms(NULL, "1e999", 2, 0) == 4000); /* not finite: ignored */
    CHECK(llm_pace_retry_wait_ms(NULL, "-3", 2, 0) == 4000);
    CHECK(llm_pace_retry_wait_ms(NULL, "soon", 2, 0) == 4000);
    CHECK(llm_pace_retry_wait_ms("x", "4x", 2, 0) == 4000);
    CHECK(llm_pace_retry_wait_ms(NULL, "99999999999", 1, 0) == 86400000); /* a day at most */
    /* an HTTP date: measured from the wall clock given */
    int64_t at = 784111777000; /* Sun, 06 Nov 1994 08:49:37 GMT */
    CHECK(llm_pace_retry_wait_ms(NULL, "Sun, 06 Nov 1994 08:49:37 GMT", 1, at - 3000) == 3000);
    CHECK(llm_pace_retry_wait_ms(NULL, "Sun, 06 Nov 1994 08:49:37 GMT", 1, at + 3000) == 500);
    CHECK(llm_pace_retry_wait_ms(NULL, "Sun, 06 Xyz 1994 08:49:37 GMT", 1, 0) == 2000);
    CHECK(llm_pace_retry_wait_ms(NULL, "Sun, 06 Nov 1994 08:49:37", 1, 0) == 2000);
    /* only plain digits: no hex, exponent or sign; an HTTP date exactly */
    const char *junk[] = {"0x10", "0x1p4", "1e5", "+5", "5s", ".", "1.2.3", " ", "Sun, 06 Nov 1994 08:49:37 GMT junk",
                          "Sun, 06 Nov 1994 08:-1:37 GMT", "Sun, +6 Nov 1994 08:49:37 GMT", "Sun, 31 Feb 1994 08:49:37 GMT",
                          "Xyz, 06 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 24:49:37 GMT", "Sun,  6 Nov 1994 08:49:37 GMT"};
    for (size_t i = 0; i < sizeof junk / sizeof junk[0]; i++) {
        int64_t w = llm_pace_retry_wait_ms(junk[i], junk[i], 1, 0);
        if (w != 2000) fprintf(stderr, "test_llm: %s read as %lld ms\n", junk[i], (long long)w);
        CHECK(w == 2000);
    }
    CHECK(llm_pace_retry_wait_ms(NULL, ".75", 1, 0) == 750);
    CHECK(llm_pace_retryable(429) && llm_pace_retryable(503) && llm_pace_retryable(529));
    CHECK(!llm_pace_retryable(500) && !llm_pace_retryable(502) && !llm_pace_retryable(400) && !llm_pace_retryable(401));
}

TEST(llm_rate_limit_spaces_calls_per_provider)
{
    /* 120 a minute: a burst of 120, then one every 500 ms. Drain the burst on the bucket (no
     * network), then time three calls to the fake. */
    llm_pace_reset();
    fake f;
    CHECK(fake_start(&f, "[{'text': 'a'}, {'text': 'b'}, {'text': 'c'}, {'text': 'd'}]") == 0);
    llm_config cfg = fake_config(&f);
    cfg.rpm[PACE_OPENAI] = 120;
    char *err = NULL;
    int64_t far = clock_monotonic_ms() + 60000;
    for (int i = 0; i < 120; i++) CHECK(llm_pace_acquire(PACE_OPENAI, 120, "CHIDORI_OPENAI_RPM", NULL, far, 0, NULL, &err) == 0);
    long t0 = now_ms();
    for (int i = 0; i < 3; i++) {
        json_t *resp = complete(&cfg, "{'messages': [{'role': 'user', 'content': 'x'}], 'model': 'gpt-4o'}", &err);
        CHECK_OK(err);
        json_free(resp);
    }
    long took = now_ms() - t0;
    /* another provider's bucket is its own: at once */
    long t1 = now_ms();
    cfg.rpm[PACE_ANTHROPIC] = 120;
    json_t *resp = complete(&cfg, "{'messages': [{'role': 'user', 'content': 'x'}], 'model': 'claude-x'}", &err);
    long took_other = now_ms() - t1;
    json_t *all = fake_requests(&f);
    fake_stop(&f);
    CHECK_OK(err);
    json_free(resp);
    if (took < 1400 || took > 4000 || took_other > 400) fprintf(stderr, "test_llm: took %ld and %ld ms\n", took, took_other);
    CHECK(took >= 1400 && took < 4000); /* three slots, 500 ms apart */
    CHECK(took_other < 400);
    CHECK(request_at(all, 1) - request_at(all, 0) >= 450);
    CHECK(request_at(all, 2) - request_at(all, 1) >= 450);
    json_free(all);

    /* one a minute: the first slot at once, the next a minute away — refused at once when that is
     * past the call's time, and given back (the next refusal names the same wait) */
    CHECK(llm_pace_acquire(PACE_COMPAT, 1, "CHIDORI_OPENAI_COMPAT_RPM", NULL, far, 0, NULL, &err) == 0);
    int64_t soon = clock_monotonic_ms() + 100;
    for (int i = 0; i < 2; i++) {
        CHECK(llm_pace_acquire(PACE_COMPAT, 1, "CHIDORI_OPENAI_COMPAT_RPM", NULL, soon, 0, NULL, &err) == -1);
        CHECK(err && strncmp(err, "rate limit CHIDORI_OPENAI_COMPAT_RPM=1: the next request slot is 6", 66) == 0 &&
              strstr(err, " ms away, after the call's time (CHIDORI_LLM_TIMEOUT_MS) runs out"));
        free(err);
        err = NULL;
    }
    /* a cancelled run takes no slot, and a run cancelled while it waits stops waiting */
    atomic_int cancel = 1;
    CHECK(llm_pace_acquire(PACE_ANTHROPIC, 0, "CHIDORI_ANTHROPIC_RPM", NULL, far, 0, &cancel, &err) == -1);
    CHECK_STR(err, "the run was cancelled");
    free(err);
    err = NULL;
    atomic_store(&cancel, 0);
    pthread_t canceller;
    CHECK(pthread_create(&canceller, NULL, cancel_later, &cancel) == 0);
    long t2 = now_ms();
    CHECK(llm_pace_acquire(PACE_COMPAT, 1, "CHIDORI_OPENAI_COMPAT_RPM", NULL, clock_monotonic_ms() + 120000, 0, &cancel, &err) == -1);
    long waited = now_ms() - t2;
    pthread_join(canceller, NULL);
    CHECK(waited >= 140 && waited < 400);
    CHECK_STR(err, "the run was cancelled while its call waited for a request slot (CHIDORI_OPENAI_COMPAT_RPM=1)");
    free(err);
    err = NULL;
    /* a limit changed while idle keeps what came back under the old one: drained at 600 a minute,
     * a second idle gives 10 slots back, so 601 a minute finds one at once */
    for (int i = 0; i < 700; i++) {
        int64_t now = clock_monotonic_ms();
        if (llm_pace_acquire(PACE_OPENROUTER, 600, "CHIDORI_OPENROUTER_RPM", NULL, now + 1, 0, NULL, &err) != 0) {
            free(err);
            err = NULL;
            break;
        }
    }
    usleep(1000000);
    long t3 = now_ms();
    CHECK(llm_pace_acquire(PACE_OPENROUTER, 601, "CHIDORI_OPENROUTER_RPM", NULL, far, 0, NULL, &err) == 0);
    CHECK(now_ms() - t3 < 30);
    /* no limit: never waits */
    for (int i = 0; i < 1000; i++) CHECK(llm_pace_acquire(PACE_ANTHROPIC, 0, "CHIDORI_ANTHROPIC_RPM", NULL, soon, 0, NULL, &err) == 0);
    llm_pace_reset();
}

TEST(llm_rate_limit_waiters_go_in_turn_across_threads)
{
    /* 600 a minute (a slot every 100 ms), the burst taken: 6 threads each take one slot; the
     * slots are handed out 100 ms apart, so the last comes about 600 ms after the start */
    llm_pace_reset();
    char *err = NULL;
    int64_t far = clock_monotonic_ms() + 60000;
    for (int i = 0; i < 600; i++) CHECK(llm_pace_acquire(PACE_OPENROUTER, 600, "CHIDORI_OPENROUTER_RPM", NULL, far, 0, NULL, &err) == 0);
    pthread_t t[6];
    pace_call c[6];
    long t0 = now_ms();
    for (int i = 0; i < 6; i++) {
        c[i] = (pace_call){.owner = NULL};
        CHECK(pthread_create(&t[i], NULL, pace_owned, &c[i]) == 0);
    }
    for (int i = 0; i < 6; i++) pthread_join(t[i], NULL);
    long last = 0, first = 1L << 40;
    for (int i = 0; i < 6; i++) {
        if (c[i].done - t0 > last) last = c[i].done - t0;
        if (c[i].done - t0 < first) first = c[i].done - t0;
    }
    if (last < 550 || last > 2000 || first < 50) fprintf(stderr, "test_llm: first %ld, last %ld ms\n", first, last);
    CHECK(first >= 50);  /* nobody got a slot the burst had used */
    CHECK(last >= 550 && last < 2000);
    llm_pace_reset();
}

TEST(llm_rate_limit_turns_are_fair_between_run_trees)
{
    /* 600 a minute, the burst taken: one run tree (a session with many actors) has 6 calls
     * waiting when another's single call comes. Turns go owner by owner, so the latecomer is served
     * second or third, not after all six (first come, first served would make it seventh). */
    llm_pace_reset();
    char *err = NULL;
    int64_t far = clock_monotonic_ms() + 60000;
    static const char busy_run = 'a', other_run = 'b';
    for (int i = 0; i < 600; i++)
        CHECK(llm_pace_acquire(PACE_OPENROUTER, 600, "CHIDORI_OPENROUTER_RPM", &busy_run, far, 0, NULL, &err) == 0);
    pthread_t t[7];
    pace_call c[7];
    for (int i = 0; i < 6; i++) {
        c[i] = (pace_call){.owner = &busy_run};
        CHECK(pthread_create(&t[i], NULL, pace_owned, &c[i]) == 0);
        usleep(2000);
    }
    usleep(20000);
    c[6] = (pace_call){.owner = &other_run};
    CHECK(pthread_create(&t[6], NULL, pace_owned, &c[6]) == 0);
    for (int i = 0; i < 7; i++) pthread_join(t[i], NULL);
    int after = 0; /* the busy run's calls served after the other run's one */
    for (int i = 0; i < 6; i++) {
        CHECK(c[i].done > 0);
        if (c[i].done > c[6].done) after++;
    }
    CHECK(c[6].done > 0);
    if (after < 4) fprintf(stderr, "test_llm: %d of the busy run's calls came after the other's\n", after);
    CHECK(after >= 4);
    llm_pace_reset();
}

static int count_entries(const char *dir)
{
    char cmd[300];
    snprintf(cmd, sizeof cmd, "ls -A %s 2>/dev/null | grep -c '\\.json$'", dir);
    FILE *f = popen(cmd, "r");
    int n = -1;
    if (f && fscanf(f, "%d", &n) != 1) n = -1;
    if (f) pclose(f);
    return n;
}

TEST(llm_prompt_cache_answers_an_exact_repeat_without_the_provider)
{
    char dir[] = "/tmp/chidori-prompt-cache-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char sub[96];
    snprintf(sub, sizeof sub, "%s/a/b", dir); /* made at the first store */
    llm_cache_reset();
    fake f;
    CHECK(fake_start(&f, "[{'text': 'first', 'id': 'msg_1', 'usage': {'input': 5, 'output': 2}}, {'text': 'other model'},"
                         " {'text': '{`n`: 1}'}, {'text': 'changed'}]") == 0);
    llm_config cfg = fake_config(&f);
    cfg.cache_dir = sub;
    const char *ask = "{'messages': [{'role': 'user', 'content': 'hi'}], 'model': 'claude-x', 'type': 'label one'}";
    char *err;
    json_t *a = complete(&cfg, ask, &err);
    CHECK_OK(err);
    /* the same request (another stream label) again: from the cache, the same response */
    json_t *b = complete(&cfg, "{'messages': [{'role': 'user', 'content': 'hi'}], 'model': 'claude-x', 'type': 'two'}", &err);
    CHECK_OK(err);
    CHECK(a && b && json_equal(a, b));
    /* another model, a format "json" request, another message: each its own entry */
    json_t *c = complete(&cfg, "{'messages': [{'role': 'user', 'content': 'hi'}], 'model': 'claude-y'}", &err);
    CHECK_OK(err);
    CHECK_STR(json_string_value(json_object_get(c, "content")), "other model");
    json_t *d = complete(&cfg, "{'messages': [{'role': 'user', 'content': 'hi'}], 'model': 'claude-x', 'format': 'json'}", &err);
    CHECK_OK(err);
    json_t *d2 = complete(&cfg, "{'messages': [{'role': 'user', 'content': 'hi'}], 'model': 'claude-x', 'format': 'json'}", &err);
    CHECK_OK(err);
    CHECK(d && d2 && json_equal(d, d2) && json_eq_text(json_object_get(d2, "json"), "{'n': 1}"));
    json_t *e = complete(&cfg, "{'messages': [{'role': 'user', 'content': 'hi!'}], 'model': 'claude-x'}", &err);
    CHECK_OK(err);
    CHECK_STR(json_string_value(json_object_get(e, "content")), "changed");
    json_t *all = fake_requests(&f);
    fake_stop(&f);
    CHECK(json_number_value(json_object_get(json_object_get(all, "counts"), "anthropic")) == 4);
    json_free(all);
    CHECK(count_entries(sub) == 4);
    /* an entry that is not JSON, or not a response, is a miss (the provider is asked again) */
    char key[65], path[200];
    llm_config probe = fake_config(&f);
    json_t *req = J(ask);
    json_t *wire = llm_anthropic_body(req, "claude-x");
    size_t wn;
    char *wtext = json_dump(wire, JSON_COMPACT, &wn);
    llm_cache_key("anthropic", probe.anthropic_base_url, wtext, wn, key);
    free(wtext);
    json_free(wire);
    json_free(req);
    snprintf(path, sizeof path, "%s/%s.json", sub, key);
    CHECK(access(path, F_OK) == 0);
    json_t *hit = llm_cache_lookup(sub, key, 1 << 20);
    CHECK(hit && json_equal(hit, a));
    json_free(hit);
    CHECK(llm_cache_lookup(sub, key, 16) == NULL); /* over the size cap */
    FILE *w = fopen(path, "w");
    fputs("{\"content\": 1}", w);
    fclose(w);
    CHECK(llm_cache_lookup(sub, key, 1 << 20) == NULL);
    /* counts that are not plain, a call without a name: misses; keys of no response's are dropped */
    const char *wrong[] = {
        "{'content': 'a', 'toolCalls': [], 'usage': {'inputTokens': 1e999, 'outputTokens': 1}, 'model': 'm', 'provider': 'p'}",
        "{'content': 'a', 'toolCalls': [], 'usage': {'inputTokens': 1, 'outputTokens': 1, 'cacheReadTokens': -4}, 'model': 'm', 'provider': 'p'}",
        "{'content': 'a', 'toolCalls': [{'id': 'c', 'name': '', 'input': {}}], 'usage': {'inputTokens': 1, 'outputTokens': 1}, 'model': 'm', 'provider': 'p'}"};
    for (int i = 0; i < 3; i++) {
        json_t *wv = J(wrong[i]);
        char *wt = json_dump(wv, JSON_COMPACT, NULL);
        CHECK(llm_cache_entry(wt, strlen(wt), 1 << 20) == NULL);
        free(wt);
        json_free(wv);
    }
    const char *extra = "{\"content\":\"a\",\"toolCalls\":[],\"stopReason\":null,\"usage\":{\"inputTokens\":2.5,\"outputTokens\":1,"
                        "\"cacheReadTokens\":1},\"model\":\"m\",\"provider\":\"p\",\"json\":{\"stale\":1},\"secret\":2}";
    json_t *ev = llm_cache_entry(extra, strlen(extra), 1 << 20);
    CHECK(ev && json_eq_text(ev, "{'content': 'a', 'toolCalls': [], 'stopReason': null, 'usage': {'inputTokens': 2, 'outputTokens': 1,"
                                 " 'cacheReadTokens': 1}, 'model': 'm', 'provider': 'p'}"));
    json_free(ev);
    w = fopen(path, "w");
    fputs("{not json", w);
    fclose(w);
    CHECK(llm_cache_lookup(sub, key, 1 << 20) == NULL);
    json_free(a), json_free(b), json_free(c), json_free(d), json_free(d2), json_free(e);
    char cmd[160];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK(system(cmd) == 0);
    llm_cache_reset();
}

/* Whether dir holds the entry of key n (keys "%064d"). */
static bool has_entry(const char *dir, int n)
{
    char path[200];
    snprintf(path, sizeof path, "%s/%064d.json", dir, n);
    return access(path, F_OK) == 0;
}

/* Its time of use set to `ago` seconds back (what a write or a hit sets to now). */
static void used_ago(const char *dir, int n, int ago)
{
    char path[200];
    snprintf(path, sizeof path, "%s/%064d.json", dir, n);
    struct timespec t[2] = {{time(NULL) - ago, 0}, {time(NULL) - ago, 0}};
    CHECK(utimensat(AT_FDCWD, path, t, 0) == 0);
}

TEST(llm_prompt_cache_evicts_the_least_recently_used_at_its_cap_and_keys_every_part)
{
    char dir[] = "/tmp/chidori-prompt-cache-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    llm_cache_reset();
    json_t *resp = J("{'content': 'x', 'toolCalls': [], 'stopReason': null, 'usage': {'inputTokens': 1, 'outputTokens': 1},"
                     " 'model': 'm', 'provider': 'openai'}");
    /* an entry counts as the 4 KiB blocks it takes: room for three, not four */
    uint64_t cap = 3 * 4096 + 2048;
    char key[65];
    for (int i = 0; i < 3; i++) {
        snprintf(key, sizeof key, "%064d", i);
        llm_cache_store(dir, key, resp, 1 << 20, cap);
        used_ago(dir, i, 300 - i * 100); /* 0 the oldest */
    }
    CHECK(count_entries(dir) == 3);
    /* a hit is a use: entry 0 becomes the most recent, and 1 the least recently used */
    snprintf(key, sizeof key, "%064d", 0);
    json_t *hit = llm_cache_lookup(dir, key, 1 << 20);
    CHECK(hit != NULL);
    json_free(hit);
    /* full: the fourth store removes the entry unused the longest, and only it */
    snprintf(key, sizeof key, "%064d", 3);
    llm_cache_store(dir, key, resp, 1 << 20, cap);
    CHECK(count_entries(dir) == 3);
    CHECK(has_entry(dir, 0) && !has_entry(dir, 1) && has_entry(dir, 2) && has_entry(dir, 3));
    /* a new process measures what is there, and evicts as well: 2 is now the oldest */
    used_ago(dir, 3, 10);
    llm_cache_reset();
    snprintf(key, sizeof key, "%064d", 4);
    llm_cache_store(dir, key, resp, 1 << 20, cap);
    CHECK(has_entry(dir, 0) && !has_entry(dir, 2) && has_entry(dir, 3) && has_entry(dir, 4));
    /* a file the cache did not name is never removed: with the folder full of them, nothing is
     * stored and nothing removed */
    char other_dir[96];
    snprintf(other_dir, sizeof other_dir, "%s/foreign", dir);
    CHECK(mkdir(other_dir, 0700) == 0);
    for (int i = 0; i < 3; i++) {
        char path[200];
        snprintf(path, sizeof path, "%s/notes-%d.json", other_dir, i);
        FILE *nf = fopen(path, "w");
        fputs("{}", nf);
        fclose(nf);
    }
    llm_cache_reset();
    llm_cache_store(other_dir, key, resp, 1 << 20, cap);
    CHECK(count_entries(other_dir) == 3 && !has_entry(other_dir, 4));
    /* an answer over half the cap does not empty the cache to make room */
    llm_cache_reset();
    llm_cache_store(dir, "ffff", resp, 1 << 20, 7000); /* 4 KiB of 7000: over half */
    CHECK(count_entries(dir) == 3);
    /* an answer not worth keeping: an error or a filtered reply sent with a 2xx, an empty one */
    char empty_dir[96];
    snprintf(empty_dir, sizeof empty_dir, "%s/other", dir);
    llm_cache_reset();
    const char *unkept[] = {
        "{'content': 'x', 'toolCalls': [], 'stopReason': 'error', 'usage': {'inputTokens': 1, 'outputTokens': 1}, 'model': 'm', 'provider': 'openai'}",
        "{'content': '', 'toolCalls': [], 'stopReason': 'content_filter', 'usage': {'inputTokens': 1, 'outputTokens': 1}, 'model': 'm', 'provider': 'openai'}",
        "{'content': '', 'toolCalls': [], 'stopReason': 'stop', 'usage': {'inputTokens': 1, 'outputTokens': 0}, 'model': 'm', 'provider': 'openai'}"};
    for (int i = 0; i < 3; i++) {
        json_t *u = J(unkept[i]);
        llm_cache_store(empty_dir, "abcd", u, 1 << 20, (uint64_t)1 << 30);
        json_free(u);
    }
    CHECK(count_entries(empty_dir) == 0);
    /* the folder deleted under a running process: made again at the next store */
    char cmd0[160];
    snprintf(cmd0, sizeof cmd0, "rm -rf %s", empty_dir);
    CHECK(system(cmd0) == 0);
    llm_cache_store(empty_dir, "abcd", resp, 1 << 20, (uint64_t)1 << 30);
    CHECK(count_entries(empty_dir) == 1);
    /* a writer's temporary file left long ago is removed when a process measures the folder */
    char stale[160];
    snprintf(stale, sizeof stale, "%s/.abcd.1.0.tmp", empty_dir);
    FILE *sf = fopen(stale, "w");
    fputs("half", sf);
    fclose(sf);
    struct timespec old_times[2] = {{time(NULL) - 3600, 0}, {time(NULL) - 3600, 0}};
    CHECK(utimensat(AT_FDCWD, stale, old_times, 0) == 0);
    llm_cache_reset();
    llm_cache_store(empty_dir, "bcde", resp, 1 << 20, (uint64_t)1 << 30);
    CHECK(access(stale, F_OK) != 0);
    /* an entry over the size cap is not stored */
    llm_cache_reset();
    llm_cache_store(dir, "eeee", resp, 8, (uint64_t)1 << 30);
    CHECK(count_entries(dir) == 3);
    json_free(resp);
    /* the key is the body as sent: the stream label and the request's own model (the model sent
     * counts) are not in it; the order of a tool's properties is (the model sees it) */
    const char *tool_ab = "'tools': [{'name': 't', 'parameters': {'type': 'object', 'properties': {'a': {}, 'b': {}}}}]";
    const char *tool_ba = "'tools': [{'name': 't', 'parameters': {'type': 'object', 'properties': {'b': {}, 'a': {}}}}]";
    char t1[300], t2[300], t3[300], t4[300];
    snprintf(t1, sizeof t1, "{'messages': [{'role': 'user', 'content': 'a'}], 'maxTokens': 5, 'type': 'x', 'model': 'q', %s}", tool_ab);
    snprintf(t2, sizeof t2, "{'messages': [{'role': 'user', 'content': 'a'}], 'maxTokens': 5, %s}", tool_ab);
    snprintf(t3, sizeof t3, "{'messages': [{'role': 'user', 'content': 'a'}], 'maxTokens': 6, %s}", tool_ab);
    snprintf(t4, sizeof t4, "{'messages': [{'role': 'user', 'content': 'a'}], 'maxTokens': 5, %s}", tool_ba);
    char k[8][65];
    const char *reqs[] = {t1, t2, t3, t4, t2, t2, t2};
    const char *prov[] = {"openai", "openai", "openai", "openai", "openai", "openai", "openrouter"};
    const char *ends[] = {"http://a", "http://a", "http://a", "http://a", "http://b", "http://a", "http://a"};
    const char *models[] = {"m", "m", "m", "m", "m", "n", "m"};
    for (int i = 0; i < 7; i++) {
        json_t *r = J(reqs[i]);
        json_t *w = llm_openai_body(r, models[i]);
        size_t n2;
        char *t = json_dump(w, JSON_COMPACT, &n2);
        llm_cache_key(prov[i], ends[i], t, n2, k[i]);
        free(t);
        json_free(w);
        json_free(r);
    }
    CHECK_STR(k[0], k[1]);
    for (int i = 2; i < 7; i++) CHECK(strcmp(k[1], k[i]) != 0);
    CHECK(strlen(k[0]) == 64);
    char cmd[160];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK(system(cmd) == 0);
    llm_cache_reset();
}

TEST(llm_invalid_json_and_missing_fields_are_clear_errors)
{
    fake f;
    CHECK(fake_start(&f, "[{'body': '{not json'}, {'json': {'id': 'x'}}, {'json': {'choices': [{'message': {'content': 'a',"
                         " 'tool_calls': [{'id': 'c', 'function': {'name': 'f', 'arguments': '{broken'}}]}}]}},"
                         " {'body': '<html>'}, {'json': {'type': 'message'}}]") == 0);
    llm_config cfg = fake_config(&f);
    const char *oa = "{'messages': [{'role': 'user', 'content': 'x'}], 'model': 'gpt-4o'}";
    const char *an = "{'messages': [{'role': 'user', 'content': 'x'}], 'model': 'claude-x'}";
    char *err;
    CHECK(complete(&cfg, oa, &err) == NULL);
    CHECK(strncmp(err, "openai: invalid JSON in the response (", 38) == 0 && strstr(err, "{not json"));
    free(err);
    CHECK(complete(&cfg, oa, &err) == NULL);
    CHECK_STR(err, "openai: the response has no choices");
    free(err);
    CHECK(complete(&cfg, oa, &err) == NULL);
    CHECK(strncmp(err, "openai: tool call \"f\" has arguments that are not valid JSON", 59) == 0);
    free(err);
    CHECK(complete(&cfg, an, &err) == NULL);
    CHECK(strncmp(err, "anthropic: invalid JSON in the response", 39) == 0 && strstr(err, "<html>"));
    free(err);
    CHECK(complete(&cfg, an, &err) == NULL);
    fake_stop(&f);
    CHECK_STR(err, "anthropic: the response has no content array");
    free(err);
}

TEST(llm_timeout_is_reported_in_time)
{
    fake f;
    CHECK(fake_start(&f, "[{'delayMs': 3000, 'text': 'late'}]") == 0);
    llm_config cfg = fake_config(&f);
    cfg.timeout_ms = 300;
    char *err;
    long t0 = now_ms();
    json_t *resp = complete(&cfg, "{'messages': [{'role': 'user', 'content': 'x'}], 'model': 'gpt-4o'}", &err);
    long took = now_ms() - t0;
    fake_stop(&f);
    CHECK(resp == NULL);
    CHECK(strncmp(err, "openai: request timed out after 300 ms", 38) == 0);
    free(err);
    CHECK(took < 2000);
}

TEST(llm_oversize_response_is_refused)
{
    fake f;
    CHECK(fake_start(&f, "[{'text': 'big', 'padBytes': 200000}, {'text': 'big', 'padBytes': 200000}]") == 0);
    llm_config cfg = fake_config(&f);
    cfg.max_response_bytes = 65536;
    char *err;
    json_t *resp = complete(&cfg, "{'messages': [{'role': 'user', 'content': 'x'}], 'model': 'gpt-4o'}", &err);
    CHECK(resp == NULL);
    CHECK_STR(err, "openai: response larger than the 65536-byte limit");
    free(err);
    resp = complete(&cfg, "{'messages': [{'role': 'user', 'content': 'x'}], 'model': 'claude-x'}", &err);
    fake_stop(&f);
    CHECK(resp == NULL);
    CHECK_STR(err, "anthropic: response larger than the 65536-byte limit");
    free(err);
}

TEST(llm_connection_refused_is_a_clear_error)
{
    int s = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t al = sizeof a;
    CHECK(bind(s, (struct sockaddr *)&a, sizeof a) == 0);
    CHECK(getsockname(s, (struct sockaddr *)&a, &al) == 0);
    close(s); /* nothing listens there now */
    char base[64];
    snprintf(base, sizeof base, "http://127.0.0.1:%d", ntohs(a.sin_port));
    llm_config cfg = {.anthropic_api_key = ANTHROPIC_KEY, .anthropic_base_url = base, .timeout_ms = 5000};
    char *err;
    json_t *resp = complete(&cfg, "{'messages': [{'role': 'user', 'content': 'x'}]}", &err);
    CHECK(resp == NULL);
    CHECK(strncmp(err, "anthropic: cannot connect: Connection refused", 45) == 0);
    free(err);
}

TEST(llm_api_key_never_appears_in_errors)
{
    fake f;
    CHECK(fake_start(&f, "[{'status': 401, 'json': {'error': {'message': 'Incorrect API key provided: " OPENAI_KEY "'}}},"
                         " {'status': 200, 'body': 'echo " ANTHROPIC_KEY "'}]") == 0);
    llm_config cfg = fake_config(&f);
    char *err;
    CHECK(complete(&cfg, "{'messages': [{'role': 'user', 'content': 'x'}], 'model': 'gpt-4o'}", &err) == NULL);
    CHECK_STR(err, "openai: HTTP 401: Incorrect API key provided: [redacted]");
    free(err);
    CHECK(complete(&cfg, "{'messages': [{'role': 'user', 'content': 'x'}], 'model': 'claude-x'}", &err) == NULL);
    fake_stop(&f);
    CHECK(strstr(err, ANTHROPIC_KEY) == NULL && strstr(err, "[redacted]") != NULL);
    free(err);
}

TEST(llm_test_provider_needs_no_network)
{
    llm_config cfg = {.test_response = "canned reply", .openai_api_key = OPENAI_KEY,
                      .openai_base_url = "http://127.0.0.1:1/never"};
    char *err;
    json_t *resp = complete(&cfg, "{'messages': [{'role': 'user', 'content': 'x'}], 'model': 'gpt-4o'}", &err);
    CHECK_OK(err);
    CHECK(json_eq_text(resp, "{'content': 'canned reply', 'toolCalls': [], 'stopReason': 'end_turn', 'usage': "
                             "{'inputTokens': 0, 'outputTokens': 0}, 'model': 'gpt-4o', 'provider': 'test'}"));
    json_free(resp);
    cfg.test_response = "[1, 2]";
    resp = complete(&cfg, "{'messages': [{'role': 'user', 'content': 'x'}], 'format': 'json'}", &err);
    CHECK_OK(err);
    CHECK(json_eq_text(json_object_get(resp, "json"), "[1, 2]"));
    CHECK_STR(json_string_value(json_object_get(resp, "model")), "test");
    json_free(resp);
    cfg.test_response = "not json";
    CHECK(complete(&cfg, "{'messages': [{'role': 'user', 'content': 'x'}], 'format': 'json'}", &err) == NULL);
    CHECK(strncmp(err, "test: format \"json\"", 19) == 0);
    free(err);
}

TEST(llm_test_provider_answers_its_tool_call_first)
{
    /* CHIDORI_TEST_LLM_TOOL_CALL: the process's first call answers the tool call; every later one,
     * and a first one that already holds a tool result, answers the text */
    llm_config cfg = {.test_response = "done", .test_tool_call = "{\"id\": \"t1\", \"name\": \"lookup\", \"input\": {\"q\": 1}}"};
    const char *ask = "{'messages': [{'role': 'user', 'content': 'x'}]}";
    char *err;
    llm_test_provider_reset();
    json_t *resp = complete(&cfg, ask, &err);
    CHECK_OK(err);
    CHECK(json_eq_text(resp, "{'content': '', 'toolCalls': [{'id': 't1', 'name': 'lookup', 'input': {'q': 1}}], 'stopReason': "
                             "'tool_use', 'usage': {'inputTokens': 0, 'outputTokens': 0}, 'model': 'test', 'provider': 'test'}"));
    json_free(resp);
    resp = complete(&cfg, ask, &err);
    CHECK_OK(err);
    CHECK_STR(json_string_value(json_object_get(resp, "content")), "done");
    CHECK(json_object_get(resp, "toolCalls")->u.array.len == 0);
    json_free(resp);
    /* the first call already answers a tool: text, and the tool call is spent */
    llm_test_provider_reset();
    resp = complete(&cfg, "{'messages': [{'role': 'user', 'content': 'x'}, {'role': 'assistant', 'content': '', 'toolCalls': "
                          "[{'id': 'a', 'name': 'f', 'input': {}}]}, {'role': 'tool', 'toolCallId': 'a', 'content': 'r'}]}",
                    &err);
    CHECK_OK(err);
    CHECK_STR(json_string_value(json_object_get(resp, "content")), "done");
    json_free(resp);
    resp = complete(&cfg, ask, &err);
    CHECK_OK(err);
    CHECK_STR(json_string_value(json_object_get(resp, "content")), "done");
    json_free(resp);
    /* what is left out takes the original's defaults */
    cfg.test_tool_call = "{}";
    llm_test_provider_reset();
    resp = complete(&cfg, ask, &err);
    CHECK_OK(err);
    CHECK(json_eq_text(json_object_get(resp, "toolCalls"), "[{'id': 'test-tool-call', 'name': 'read', 'input': null}]"));
    json_free(resp);
    llm_test_provider_reset();
}

TEST(llm_no_provider_and_bad_requests)
{
    llm_config cfg = {0};
    char *err;
    CHECK(complete(&cfg, "{'messages': [{'role': 'user', 'content': 'x'}]}", &err) == NULL);
    const char *none = "no LLM provider configured: set ANTHROPIC_API_KEY, OPENAI_API_KEY, CHIDORI_OPENAI_COMPAT_URL "
                       "(or LITELLM_API_URL) for any OpenAI-compatible endpoint, OPENROUTER_API_KEY (or sign in "
                       "with the original chidori's model-login), or CHIDORI_TEST_LLM_RESPONSE";
    CHECK_STR(err, none);
    free(err);
    cfg.test_response = "t";
    struct { const char *req, *want; } bad[] = {
        {"[]", "test: request must be an object"},
        {"{'messages': []}", "test: request.messages must be a non-empty array"},
        {"{'messages': [{'role': 'robot', 'content': 'x'}]}", "test: messages[0].role must be \"user\", \"assistant\", \"tool\" or \"system\""},
        {"{'messages': [{'role': 'user', 'content': 5}]}", "test: messages[0].content must be a string"},
        {"{'messages': [{'role': 'tool', 'content': 'x'}]}", "test: messages[0] (role \"tool\") needs a string toolCallId"},
        {"{'messages': [{'role': 'user', 'content': 'x', 'toolCalls': []}]}", "test: messages[0].toolCalls is only allowed on assistant messages"},
        {"{'messages': [{'role': 'assistant', 'toolCalls': [{'id': 'a'}]}]}", "test: messages[0].toolCalls[0] must have a string id and name"},
        {"{'messages': [{'role': 'user', 'content': 'x'}], 'maxTokens': 0}", "test: request.maxTokens must be a positive integer"},
        {"{'messages': [{'role': 'user', 'content': 'x'}], 'format': 'yaml'}", "test: request.format must be \"json\" or \"text\""},
        {"{'messages': [{'role': 'user', 'content': 'x'}], 'tools': [{'name': ''}]}", "test: tools[0] must be an object with a string name"},
        {"{'messages': [{'role': 'user', 'content': 'x'}], 'tools': [{'name': 'a', 'parameters': []}]}", "test: tools[0].parameters must be an object (a JSON Schema)"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK(complete(&cfg, bad[i].req, &err) == NULL);
        CHECK_STR(err, bad[i].want);
        free(err);
    }
}

TEST(llm_provider_choice_by_model_and_keys)
{
    fake f;
    CHECK(fake_start(&f, "[{'text': 'a'}, {'text': 'b'}, {'text': 'c'}, {'text': 'd'}]") == 0);
    llm_config cfg = fake_config(&f);
    char *err;
    const char *msgs = "'messages': [{'role': 'user', 'content': 'x'}]";
    char *req = xasprintf("{%s}", msgs);
    /* both keys, no model → openai with its default model */
    json_t *resp = complete(&cfg, req, &err);
    CHECK_OK(err);
    CHECK(resp != NULL);
    CHECK_STR(json_string_value(json_object_get(resp, "provider")), "openai");
    json_free(resp);
    /* only anthropic, no model → anthropic with its default model; CHIDORI_MODEL picks otherwise */
    cfg.openai_api_key = NULL;
    resp = complete(&cfg, req, &err);
    CHECK_OK(err);
    CHECK(resp != NULL);
    CHECK_STR(json_string_value(json_object_get(resp, "provider")), "anthropic");
    json_free(resp);
    cfg.default_model = "claude-default";
    resp = complete(&cfg, req, &err);
    CHECK_OK(err);
    CHECK(resp != NULL);
    json_free(resp);
    /* a gpt model without an OpenAI key is an error, not a silent switch */
    free(req);
    req = xasprintf("{%s, 'model': 'gpt-4o'}", msgs);
    CHECK(complete(&cfg, req, &err) == NULL);
    CHECK_STR(err, "model \"gpt-4o\" needs OPENAI_API_KEY (only ANTHROPIC_API_KEY is set)");
    free(err);
    /* claude with only an OpenAI key → the OpenAI-compatible endpoint */
    cfg.openai_api_key = OPENAI_KEY;
    cfg.anthropic_api_key = NULL;
    free(req);
    req = xasprintf("{%s, 'model': 'claude-via-gateway'}", msgs);
    resp = complete(&cfg, req, &err);
    free(req);
    CHECK_OK(err);
    CHECK(resp != NULL);
    CHECK_STR(json_string_value(json_object_get(resp, "provider")), "openai");
    json_free(resp);
    json_t *all = fake_requests(&f);
    fake_stop(&f);
    bool ok = json_eq_text(json_object_get(json_object_get(nth_request(all, 0), "body"), "model"), "'" LLM_DEFAULT_OPENAI_MODEL "'") &&
              json_eq_text(json_object_get(json_object_get(nth_request(all, 1), "body"), "model"), "'" LLM_DEFAULT_ANTHROPIC_MODEL "'") &&
              json_eq_text(json_object_get(json_object_get(nth_request(all, 2), "body"), "model"), "'claude-default'") &&
              json_eq_text(json_object_get(json_object_get(nth_request(all, 3), "body"), "model"), "'claude-via-gateway'") &&
              json_eq_text(json_object_get(all, "counts"), "{'openai': 2, 'anthropic': 2, 'other': 0}");
    json_free(all);
    CHECK(ok);
}

TEST(llm_config_reads_the_settings)
{
    char *error = NULL;
    settings *none = settings_from_environ((char *[]){NULL}, &error);
    llm_config cfg;
    llm_config_from_settings(&cfg, none);
    bool ok1 = !cfg.openai_api_key && !cfg.anthropic_api_key && !cfg.test_response && !cfg.default_model &&
               strcmp(cfg.openai_base_url, LLM_DEFAULT_OPENAI_BASE_URL) == 0 &&
               strcmp(cfg.anthropic_base_url, LLM_DEFAULT_ANTHROPIC_BASE_URL) == 0 &&
               cfg.timeout_ms == LLM_DEFAULT_TIMEOUT_MS && cfg.max_response_bytes == LLM_DEFAULT_MAX_RESPONSE_BYTES;
    settings *set = settings_from_environ((char *[]){"OPENAI_API_KEY=k1", "OPENAI_BASE_URL=http://127.0.0.1:9/v1",
                                                     "ANTHROPIC_API_KEY=" /* empty = unset */, "CHIDORI_MODEL=m",
                                                     "CHIDORI_LLM_TIMEOUT_MS=2500", NULL},
                                         &error);
    llm_config_from_settings(&cfg, set);
    bool ok2 = cfg.openai_api_key && strcmp(cfg.openai_api_key, "k1") == 0 && !cfg.anthropic_api_key &&
               strcmp(cfg.openai_base_url, "http://127.0.0.1:9/v1") == 0 && strcmp(cfg.default_model, "m") == 0 &&
               cfg.timeout_ms == 2500;
    settings_free(set);
    /* the request limits: 0 is none; the compatible endpoint's second name when the first is 0 */
    bool ok3 = cfg.rpm[PACE_ANTHROPIC] == 0 && cfg.rpm[PACE_OPENAI] == 0 && cfg.rpm[PACE_COMPAT] == 0 &&
               cfg.rpm[PACE_OPENROUTER] == 0 && !cfg.test_tool_call;
    set = settings_from_environ((char *[]){"CHIDORI_ANTHROPIC_RPM=50", "CHIDORI_OPENAI_RPM=7", "CHIDORI_OPENAI_COMPAT_RPM=0",
                                           "CHIDORI_LITELLM_RPM=9", "CHIDORI_OPENROUTER_RPM=1000000",
                                           "CHIDORI_TEST_LLM_TOOL_CALL={\"name\": \"f\"}", NULL},
                                &error);
    llm_config_from_settings(&cfg, set);
    bool ok4 = cfg.rpm[PACE_ANTHROPIC] == 50 && cfg.rpm[PACE_OPENAI] == 7 && cfg.rpm[PACE_COMPAT] == 9 &&
               cfg.rpm[PACE_OPENROUTER] == 1000000 && cfg.test_tool_call && !strcmp(cfg.test_tool_call, "{\"name\": \"f\"}");
    settings_free(set);
    set = settings_from_environ((char *[]){"CHIDORI_OPENAI_COMPAT_RPM=3", "CHIDORI_LITELLM_RPM=9", NULL}, &error);
    llm_config_from_settings(&cfg, set);
    bool ok5 = cfg.rpm[PACE_COMPAT] == 3;
    settings_free(set);
    settings_free(none);
    CHECK(ok1);
    CHECK(ok2);
    CHECK(ok3);
    CHECK(ok4);
    CHECK(ok5);
    /* what the edge refuses */
    const char *bad[] = {"CHIDORI_ANTHROPIC_RPM=-1", "CHIDORI_OPENAI_RPM=1000001", "CHIDORI_OPENROUTER_RPM=fast",
                         "CHIDORI_TEST_LLM_TOOL_CALL=[1]", "CHIDORI_TEST_LLM_TOOL_CALL={\"name\": 3}",
                         "CHIDORI_TEST_LLM_TOOL_CALL=not json"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *e = NULL;
        settings *s = settings_from_environ((char *[]){(char *)bad[i], NULL}, &e);
        if (s || !e) fprintf(stderr, "test_llm: %s was accepted\n", bad[i]);
        CHECK(!s && e);
        settings_free(s);
        free(e);
    }
}

TEST(llm_openrouter_key_saved_by_the_originals_model_login)
{
    /* ~/.chidori/credentials.json's openrouter_api_key, when OPENROUTER_API_KEY is blank */
    char home[] = "/tmp/chidori-home-XXXXXX";
    CHECK(mkdtemp(home) != NULL);
    char dir[96], path[128], henv[128];
    snprintf(dir, sizeof dir, "%s/.chidori", home);
    snprintf(path, sizeof path, "%s/credentials.json", dir);
    snprintf(henv, sizeof henv, "HOME=%s", home);
    CHECK(mkdir(dir, 0700) == 0);
    FILE *f = fopen(path, "w");
    fputs("{\n  \"deploy_url\": \"x\",\n  \"openrouter_api_key\": \"sk-or-saved-0123456789\"\n}", f);
    fclose(f);
    char *error = NULL;
    settings *s = settings_from_environ((char *[]){henv, NULL}, &error);
    llm_config cfg;
    llm_config_from_settings(&cfg, s);
    bool saved = cfg.openrouter_api_key && !strcmp(cfg.openrouter_api_key, "sk-or-saved-0123456789");
    settings_free(s);
    s = settings_from_environ((char *[]){henv, "OPENROUTER_API_KEY=sk-or-env", NULL}, &error);
    llm_config_from_settings(&cfg, s);
    bool env_wins = cfg.openrouter_api_key && !strcmp(cfg.openrouter_api_key, "sk-or-env") && !settings_saved_openrouter_key(s);
    settings_free(s);
    s = settings_from_environ((char *[]){henv, "OPENROUTER_API_KEY=  ", NULL}, &error); /* blank is unset */
    bool blank_env = settings_saved_openrouter_key(s) != NULL;
    settings_free(s);
    CHECK(saved);
    CHECK(env_wins);
    CHECK(blank_env);
    /* a saved key serves only what no other provider can: with ANTHROPIC_API_KEY set, a prompt
     * naming no model still goes to Anthropic, a gpt model to OpenRouter (nothing listens at either
     * address: the error names who was asked) */
    llm_config route = {.anthropic_api_key = ANTHROPIC_KEY, .anthropic_base_url = "http://127.0.0.1:1",
                        .openrouter_api_key = "sk-or-saved", .openrouter_key_saved = true,
                        .openrouter_base_url = "http://127.0.0.1:1/api/v1", .timeout_ms = 2000};
    char *rerr;
    CHECK(complete(&route, "{'messages': [{'role': 'user', 'content': 'x'}]}", &rerr) == NULL);
    CHECK(rerr && !strncmp(rerr, "anthropic: ", 11));
    free(rerr);
    CHECK(complete(&route, "{'messages': [{'role': 'user', 'content': 'x'}], 'model': 'gpt-4o'}", &rerr) == NULL);
    CHECK(rerr && !strncmp(rerr, "openrouter: ", 12));
    free(rerr);
    route.openrouter_key_saved = false; /* the same key from the environment takes its place in the order */
    CHECK(complete(&route, "{'messages': [{'role': 'user', 'content': 'x'}]}", &rerr) == NULL);
    CHECK(rerr && !strncmp(rerr, "openrouter: ", 12));
    free(rerr);
    /* what is not a saved key: ignored, as the original ignores it */
    const char *bad[] = {"{not json", "[\"openrouter_api_key\"]", "{\"openrouter_api_key\": 5}", "{\"openrouter_api_key\": \"  \"}",
                         "{\"openrouter_api_key\": \"a\\u0000b\"}", "{}", ""};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *k = saved_openrouter_key_of(bad[i], strlen(bad[i]));
        if (k) fprintf(stderr, "test_llm: a key from %s\n", bad[i]);
        CHECK(k == NULL);
        free(k);
    }
    char *big = xmalloc((64 << 10) + 64);
    int n = snprintf(big, 64, "{\"openrouter_api_key\": \"k\", \"pad\": \"");
    memset(big + n, 'x', 64 << 10);
    strcpy(big + n + (64 << 10), "\"}");
    CHECK(saved_openrouter_key_of(big, strlen(big)) == NULL); /* over 64 KiB */
    free(big);
    /* a missing file, a folder in its place, no home: none */
    unlink(path);
    CHECK(saved_openrouter_key(home) == NULL);
    CHECK(mkdir(path, 0700) == 0);
    CHECK(saved_openrouter_key(home) == NULL);
    CHECK(saved_openrouter_key(NULL) == NULL && saved_openrouter_key("") == NULL);
    rmdir(path);
    rmdir(dir);
    rmdir(home);
}

TEST(llm_parsers_reject_malformed_bodies)
{
    struct { int anthropic; const char *body, *want; } cases[] = {
        {0, "[]", "the response is not a JSON object"},
        {0, "{'choices': [{}]}", "the response has no choices[0].message object"},
        {0, "{'choices': [{'message': {'content': 5}}]}", "choices[0].message.content is neither a string nor null"},
        {0, "{'choices': [{'message': {'tool_calls': [{'function': {}}]}}]}", "tool_calls[0] has no function name"},
        {0, "{'error': {'message': 'quota'}}", "the response reports an error: quota"},
        {1, "{'type': 'error', 'error': {'type': 'overloaded_error', 'message': 'Overloaded'}}", "the response reports an error: Overloaded"},
        {1, "{'content': [{'text': 'a'}]}", "content[0] has no type"},
        {1, "{'content': [{'type': 'text'}]}", "content[0] (text) has no text string"},
        {1, "{'content': [{'type': 'tool_use', 'id': 'x'}]}", "content[0] (tool_use) has no name"},
        {1, "{'content': [{'type': 'tool_use', 'name': 'x'}]}", "content[0] (tool_use) has no id"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        json_t *b = J(cases[i].body);
        char *text = json_dump(b, 0, NULL);
        json_free(b);
        json_t *out = NULL;
        char *err = NULL;
        int r = cases[i].anthropic ? llm_anthropic_parse(text, strlen(text), 1 << 20, "m", &out, &err)
                                   : llm_openai_parse(text, strlen(text), 1 << 20, "m", &out, &err);
        free(text);
        CHECK(r == -1 && out == NULL);
        CHECK_STR(err, cases[i].want);
        free(err);
    }
    /* lenient where real compatible servers differ: missing usage/model, ignored block types,
     * arguments as an object, missing ids, content parts */
    const char *ok_openai = "{\"choices\":[{\"message\":{\"content\":[{\"type\":\"text\",\"text\":\"a\"},{\"type\":\"text\",\"text\":\"b\"}],"
                            "\"tool_calls\":[{\"function\":{\"name\":\"f\",\"arguments\":{\"x\":1}}},{\"id\":\"k\",\"function\":{\"name\":\"g\",\"arguments\":\"\"}}]}}]}";
    json_t *out = NULL;
    char *err = NULL;
    CHECK(llm_openai_parse(ok_openai, strlen(ok_openai), 1 << 20, "fallback", &out, &err) == 0);
    CHECK(json_eq_text(out, "{'content': 'ab', 'toolCalls': [{'id': 'call_0', 'name': 'f', 'input': {'x': 1}}, {'id': 'k', 'name': 'g', 'input': {}}],"
                            " 'stopReason': null, 'usage': {'inputTokens': 0, 'outputTokens': 0}, 'model': 'fallback'}"));
    json_free(out);
    const char *ok_anthropic = "{\"content\":[{\"type\":\"thinking\",\"thinking\":\"hm\"},{\"type\":\"text\",\"text\":\"x\"}],"
                               "\"usage\":{\"input_tokens\":-5,\"output_tokens\":1e400}}";
    CHECK(llm_anthropic_parse(ok_anthropic, strlen(ok_anthropic), 1 << 20, "fb", &out, &err) == 0);
    CHECK(json_eq_text(out, "{'content': 'x', 'toolCalls': [], 'stopReason': null, 'usage': {'inputTokens': 0, 'outputTokens': 0}, 'model': 'fb'}"));
    json_free(out);
}

TEST(llm_excerpt_is_bounded_and_printable)
{
    char *e = llm_excerpt("a\r\n\tb\x01\xff\xc3\xa9z", 10, 100);
    CHECK_STR(e, "a b ?\xc3\xa9z");
    free(e);
    e = llm_excerpt("abcdef", 6, 3);
    CHECK_STR(e, "abc\xe2\x80\xa6");
    free(e);
    e = llm_excerpt("ab\xc3\xa9", 4, 3); /* never cuts inside a character */
    CHECK_STR(e, "ab\xe2\x80\xa6");
    free(e);
    char *h = llm_http_error(302, "", 0);
    CHECK_STR(h, "HTTP 302 (redirects are not followed) with an empty body");
    free(h);
}
