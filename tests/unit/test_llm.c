/* test_llm.c — the LLM providers (src/host/llm*.c) against tests/providers/fake_llm.py: the exact
 * requests each wire format sends (path, auth headers, model, messages, tools, tool results),
 * the answers mapped back (text, tool calls, usage, format "json"), and every failure a provider
 * can cause (HTTP errors, invalid JSON, missing fields, timeouts, oversize bodies, refused
 * connections) ending as a clear error that never contains an API key. */
#define _GNU_SOURCE
#include "unit.h"
#include "host/llm.h"
#include "host/llm_internal.h"
#include "util/buf.h"
#include "settings/settings.h"

#include <arpa/inet.h>
#include <curl/curl.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/socket.h>
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
                         " {'status': 529, 'body': 'upstream\\nexploded'}]") == 0);
    llm_config cfg = fake_config(&f);
    char *err;
    json_t *resp = complete(&cfg, "{'messages': [{'role': 'user', 'content': 'x'}], 'model': 'gpt-4o'}", &err);
    CHECK(resp == NULL);
    CHECK_STR(err, "openai: HTTP 500: The server is overloaded");
    free(err);
    resp = complete(&cfg, "{'messages': [{'role': 'user', 'content': 'x'}], 'model': 'claude-x'}", &err);
    fake_stop(&f);
    CHECK(resp == NULL);
    CHECK_STR(err, "anthropic: HTTP 529: upstream exploded");
    free(err);
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

TEST(llm_no_provider_and_bad_requests)
{
    llm_config cfg = {0};
    char *err;
    CHECK(complete(&cfg, "{'messages': [{'role': 'user', 'content': 'x'}]}", &err) == NULL);
    const char *none = "no LLM provider configured: set ANTHROPIC_API_KEY, OPENAI_API_KEY, CHIDORI_OPENAI_COMPAT_URL "
                       "(or LITELLM_API_URL) for any OpenAI-compatible endpoint, OPENROUTER_API_KEY, or "
                       "CHIDORI_TEST_LLM_RESPONSE";
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
    settings_free(none);
    CHECK(ok1);
    CHECK(ok2);
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
