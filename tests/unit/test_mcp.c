/* test_mcp.c — the MCP client: config validation with positions, the protocol engine driven from
 * buffers, the real reference server (tests/mcp/node_modules, `npm install` in tests/mcp), and the
 * hostile fake servers in tests/mcp/ (Python) (dies, garbage, silent, flood, requests). */
#include "unit.h"
#include "host/mcp.h"
#include "util/buf.h"
#include "settings/settings.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define EVERYTHING "tests/mcp/node_modules/.bin/mcp-server-everything"

/* Servers inherit PATH, HOME and LANG from the settings, built here from this process's
 * environment as the command line builds them. */
extern char **environ;
static mcp_hub *hub_text(const char *cfg)
{
    char *err = NULL;
    settings *set = settings_from_environ(environ, &err);
    if (!set) fprintf(stderr, "settings error: %s\n", err), abort();
    mcp_hub *hub = mcp_hub_new(cfg, strlen(cfg), set, &err);
    settings_free(set);
    if (!hub) fprintf(stderr, "config error: %s\n", err);
    free(err);
    return hub;
}

/* A hub with one fake server tests/mcp/<script>. */
static mcp_hub *fake_hub(const char *name, const char *script, int timeout_ms)
{
    /* The system interpreter when there is one: a version manager's shim can take seconds. */
    const char *python = access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3";
    char *cfg = xasprintf("{\"mcpServers\": {\"%s\": {\"command\": \"%s\", \"args\": [\"-u\", \"tests/mcp/%s\"],"
                          " \"timeoutMs\": %d}}}",
                          name, python, script, timeout_ms);
    mcp_hub *hub = hub_text(cfg);
    free(cfg);
    return hub;
}

static bool contains(const char *s, const char *sub)
{
    return s && strstr(s, sub) != NULL;
}

static const char *first_text(const json_t *result)
{
    const json_t *content = json_object_get(result, "content");
    if (!json_is_array(content) || content->u.array.len == 0) return NULL;
    return json_string_value(json_object_get(content->u.array.items[0], "text"));
}

static bool is_error_result(const json_t *result)
{
    const json_t *e = json_object_get(result, "isError");
    return e && e->type == JSON_TRUE;
}

static bool reaped(int pid)
{
    return pid > 0 && waitpid(pid, NULL, WNOHANG) < 0 && errno == ECHILD;
}

/* Processes of process group pgid that are not zombies (an orphaned zombie waits for init). */
static int live_in_group(int pgid)
{
    int live = 0;
    DIR *d = opendir("/proc");
    struct dirent *e;
    while (d && (e = readdir(d))) {
        char path[64], stat[512];
        if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
        snprintf(path, sizeof path, "/proc/%.20s/stat", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f) continue;
        size_t n = fread(stat, 1, sizeof stat - 1, f);
        fclose(f);
        stat[n] = 0;
        char *rp = strrchr(stat, ')'); /* "pid (comm) S ppid pgrp ..." */
        char state;
        int ppid, pgrp;
        if (rp && sscanf(rp + 1, " %c %d %d", &state, &ppid, &pgrp) == 3 && pgrp == pgid && state != 'Z') live++;
    }
    if (d) closedir(d);
    return live;
}

static int64_t ms_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int call(mcp_hub *hub, const char *tool, const char *args_json, json_t **result, char **error)
{
    json_t *args = args_json ? json_parse(args_json, strlen(args_json), NULL, NULL) : NULL;
    int rc = mcp_hub_call_tool(hub, tool, args, result, error);
    json_free(args);
    return rc;
}

/* ---- configuration ---- */

TEST(mcp_config_rejects_bad_documents_with_positions)
{
    struct { const char *cfg, *want; } cases[] = {
        {"{\"mcpServers\": {}, \"extra\": 1}", "line 1:29: unknown key 'extra'"},
        {"{}", "line 1:1: missing \"mcpServers\""},
        {"[]", "must be an object"},
        {"{\"mcpServers\": []}", "line 1:16: mcpServers: must be an object of servers, not an array"},
        {"{\"mcpServers\": {\"a\": {\"command\": \"x\",\n  \"comand\": \"y\"}}}", "line 2:13: mcpServers.a: unknown key 'comand'"},
        {"{\"mcpServers\": {\"a\": {\"command\": 5}}}", "line 1:34: mcpServers.a.command: must be a non-empty string"},
        {"{\"mcpServers\": {\"a\": {\"command\": \"\"}}}", "mcpServers.a.command: must be a non-empty string"},
        {"{\"mcpServers\": {\"a\": {}}}", "line 1:22: mcpServers.a: missing \"command\""},
        {"{\"mcpServers\": {\"a\": {\"command\": \"x\", \"args\": [\"ok\", 1]}}}", "line 1:54: mcpServers.a.args[1]: must be a string"},
        {"{\"mcpServers\": {\"a\": {\"command\": \"x\", \"args\": \"-v\"}}}", "mcpServers.a.args: must be an array of strings"},
        {"{\"mcpServers\": {\"a\": {\"command\": \"x\", \"env\": {\"K\": 1}}}}", "mcpServers.a.env.K: must be a string"},
        {"{\"mcpServers\": {\"a\": {\"command\": \"x\", \"env\": {\"A=B\": \"1\"}}}}", "'A=B' is not a valid variable name"},
        {"{\"mcpServers\": {\"a\": {\"command\": \"x\", \"timeoutMs\": 1.5}}}", "mcpServers.a.timeoutMs: must be an integer"},
        {"{\"mcpServers\": {\"a\": {\"command\": \"x\", \"timeoutMs\": 0}}}", "mcpServers.a.timeoutMs: must be an integer"},
        {"{\"mcpServers\": {\"a\": {\"command\": \"x\", \"stderr\": \"loud\"}}}", "mcpServers.a.stderr: must be"},
        {"{\"mcpServers\": {\"a\": {\"command\": \"x\", \"cwd\": []}}}", "mcpServers.a.cwd: must be a non-empty string"},
        {"{\"mcpServers\": {\"a\": {\"command\": \"x\\u0000y\"}}}", "mcpServers.a.command: must be a non-empty string"},
        {"{\"mcpServers\": {\"a\": 3}}", "line 1:22: mcpServers.a: must be an object, not a number"},
        {"{\"mcpServers\": {\"a__b\": {\"command\": \"x\"}}}", "line 1:25: mcpServers: server name 'a__b'"},
        {"{\"mcpServers\": {\"a.b\": {\"command\": \"x\"}}}", "server name 'a.b'"},
        {"{\"mcpServers\": {\"a_\": {\"command\": \"x\"}}}", "server name 'a_'"},
        {"{\"mcpServers\": {\"\": {\"command\": \"x\"}}}", "server name ''"},
        {"{\"mcpServers\": {\"a\": {\"command\": \"x\"}}", "line 1:39:"},
        {"", "line 1:1:"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *err = NULL;
        mcp_hub *hub = mcp_hub_new(cases[i].cfg, strlen(cases[i].cfg), NULL, &err);
        if (hub || !contains(err, cases[i].want)) {
            char m[600];
            snprintf(m, sizeof m, "case %zu: got \"%.300s\", want \"%s\"", i, err ? err : "(hub)", cases[i].want);
            mcp_hub_free(hub);
            free(err);
            unit_fail(__FILE__, __LINE__, m);
            return;
        }
        free(err);
    }
    mcp_hub *ok = hub_text("{\"mcpServers\": {\"A-b_9\": {\"command\": \"x\", \"args\": [], \"env\": {\"K_1\": \"v\"},"
                           " \"cwd\": \"/\", \"timeoutMs\": 1000, \"stderr\": \"discard\"}}}");
    CHECK(ok != NULL);
    mcp_hub_free(ok);
}

/* The settings of one variable (freed by the caller). */
static settings *one_setting(const char *name, const char *value)
{
    char *kv = xasprintf("%s=%s", name, value), *error = NULL;
    settings *s = settings_from_environ((char *[]){kv, NULL}, &error);
    free(kv);
    free(error);
    return s;
}

TEST(mcp_config_from_settings_inline_file_and_unset)
{
    char *err = NULL;
    CHECK(mcp_hub_from_settings(NULL, &err) == NULL && err == NULL);
    settings *set = one_setting("CHIDORI_MCP_CONFIG", " {\"mcpServers\": {\"a\": {\"command\": \"x\"}}}");
    mcp_hub *hub = mcp_hub_from_settings(set, &err);
    settings_free(set);
    CHECK(hub != NULL && err == NULL);
    mcp_hub_free(hub);

    char path[] = "/tmp/chidori-mcp-test-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    const char *text = "{\"mcpServers\": {\n  \"a\": {\"command\": \"x\", \"bogus\": 1}}}";
    CHECK(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
    close(fd);
    set = one_setting("CHIDORI_MCP_CONFIG", path);
    hub = mcp_hub_from_settings(set, &err);
    settings_free(set);
    unlink(path);
    CHECK(hub == NULL);
    CHECK(contains(err, path) && contains(err, "line 2:34: mcpServers.a: unknown key 'bogus'"));
    free(err);

    set = one_setting("CHIDORI_MCP_CONFIG", "/nonexistent/mcp.json");
    hub = mcp_hub_from_settings(set, &err);
    settings_free(set);
    CHECK(hub == NULL && contains(err, "CHIDORI_MCP_CONFIG"));
    free(err);
}

/* ---- the protocol engine from buffers ---- */

TEST(mcp_session_frames_partial_and_multiple_messages)
{
    mcp_session s;
    mcp_session_init(&s, "t", NULL);
    int64_t id = mcp_session_request(&s, "tools/call", NULL);
    CHECK(id == 1);
    CHECK(s.out_len > 0 && s.out[s.out_len - 1] == '\n');
    mcp_session_consumed(&s, s.out_len);
    const char *stream = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{}}\n"
                         "\r\n{\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{}}\n"
                         "{\"jsonrpc\":\"2.0\",\"id\":\"x\",\"method\":\"ping\"}\n"
                         "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"v\":1}}\r\n"
                         "{\"jsonrpc\":\"2.0\",\"id\":2,";
    /* One byte at a time: every split point works. */
    int st = MCP_FEED_MORE;
    size_t n = strlen(stream), i = 0;
    for (; i < n && st == MCP_FEED_MORE; i++) st = mcp_session_feed(&s, stream + i, 1);
    CHECK(st == MCP_FEED_DONE);
    CHECK(json_number_value(json_object_get(s.response, "v")) == 1);
    CHECK(s.ignored == 2 && s.answered == 1);
    CHECK(contains(s.out, "{\"jsonrpc\":\"2.0\",\"id\":\"x\",\"result\":{}}\n"));
    /* The rest stays buffered for the next request. */
    mcp_session_request(&s, "next", NULL);
    st = mcp_session_feed(&s, stream + i, n - i);
    CHECK(st == MCP_FEED_MORE);
    st = mcp_session_feed(&s, "\"error\":{\"code\":-1,\"message\":\"m\"}}\n", 35);
    CHECK(st == MCP_FEED_DONE && s.rpc_error != NULL);
    mcp_session_eof(&s, "exited");
    CHECK_STR(s.error, "MCP server 't' exited");
    mcp_session_free(&s);
}

TEST(mcp_session_rejects_garbage_and_oversize)
{
    mcp_limits lim;
    mcp_limits_default(&lim);
    lim.max_message_bytes = 100;
    lim.max_bytes_per_call = 1000;
    const char *bad[] = {"hello\n", "[]\n", "{\"id\":1,\"result\":{}}\n", "{\"jsonrpc\":\"2.0\",\"id\":1}\n",
                         "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":1,\"error\":{}}\n", "\"\x1b[2J\"\n"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        mcp_session s;
        mcp_session_init(&s, "g", &lim);
        mcp_session_request(&s, "m", NULL);
        CHECK(mcp_session_feed(&s, bad[i], strlen(bad[i])) == MCP_FEED_FAIL);
        CHECK(contains(s.error, "MCP server 'g'") && !strchr(s.error, '\x1b'));
        mcp_session_free(&s);
    }
    mcp_session s;
    mcp_session_init(&s, "g", &lim);
    mcp_session_request(&s, "m", NULL);
    char big[150];
    memset(big, 'x', sizeof big);
    CHECK(mcp_session_feed(&s, big, sizeof big) == MCP_FEED_FAIL && contains(s.error, "larger than 100 bytes"));
    mcp_session_free(&s);

    mcp_session_init(&s, "g", &lim);
    mcp_session_request(&s, "m", NULL);
    const char *note = "{\"jsonrpc\":\"2.0\",\"method\":\"n\"}\n";
    int st = MCP_FEED_MORE;
    for (int i = 0; i < 100 && st == MCP_FEED_MORE; i++) st = mcp_session_feed(&s, note, strlen(note));
    CHECK(st == MCP_FEED_FAIL && contains(s.error, "more than 1000 bytes"));
    mcp_session_free(&s);
}

TEST(mcp_result_shapes)
{
    char *err = NULL;
    json_t *r;
    const char *in = "{\"content\":[{\"type\":\"text\",\"text\":\"a\"}],\"_meta\":{},\"structuredContent\":{\"x\":1}}";
    r = json_parse(in, strlen(in), NULL, NULL);
    json_t *shaped = mcp_shape_call_result(r, &err);
    char *text = json_dump(shaped, 0, NULL);
    CHECK_STR(text, "{\"content\":[{\"type\":\"text\",\"text\":\"a\"}],\"isError\":false,\"structuredContent\":{\"x\":1}}");
    free(text);
    json_free(shaped);
    json_free(r);
    const char *bad[] = {"[]", "{}", "{\"content\":[1]}", "{\"content\":[],\"isError\":\"yes\"}",
                         "{\"content\":[],\"structuredContent\":[]}"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        r = json_parse(bad[i], strlen(bad[i]), NULL, NULL);
        CHECK(r != NULL);
        CHECK(mcp_shape_call_result(r, &err) == NULL && err != NULL);
        free(err);
        json_free(r);
    }
}

/* ---- the real reference server ---- */

TEST(mcp_everything_server_lists_and_calls)
{
    if (access(EVERYTHING, X_OK) != 0) {
        printf("SKIP %s missing (run: cd tests/mcp && npm install --no-audit --no-fund)\n", EVERYTHING);
        return;
    }
    setenv("CHIDORI_MCP_TEST_SECRET", "leak", 1);
    mcp_hub *hub = hub_text("{\"mcpServers\": {\"everything\": {\"command\": \"" EVERYTHING "\", \"args\": [\"stdio\"],"
                            " \"env\": {\"CONFIGURED\": \"yes\"}, \"stderr\": \"discard\"}}}");
    unsetenv("CHIDORI_MCP_TEST_SECRET");
    CHECK(hub != NULL);
    json_t *tools = NULL, *result = NULL;
    char *err = NULL;
    int rc = mcp_hub_list_tools(hub, &tools, &err);
    if (rc != 0) fprintf(stderr, "%s\n", err);
    CHECK(rc == 0);
    bool echo = false, add = false;
    for (size_t i = 0; i < tools->u.array.len; i++) {
        const json_t *t = tools->u.array.items[i];
        const char *name = json_string_value(json_object_get(t, "name"));
        CHECK(name && strncmp(name, "everything__", 12) == 0);
        CHECK(json_is_string(json_object_get(t, "description")) && json_is_object(json_object_get(t, "inputSchema")));
        if (strcmp(name, "everything__echo") == 0) echo = true;
        /* Older releases call it "add", the pinned one "get-sum". */
        if (strcmp(name, "everything__add") == 0 || strcmp(name, "everything__get-sum") == 0) add = true;
    }
    json_free(tools);
    CHECK(echo && add);
    int pid = mcp_hub_server_pid(hub, "everything");
    CHECK(pid > 0);

    CHECK(call(hub, "everything__echo", "{\"message\":\"hi there\"}", &result, &err) == 0);
    CHECK_STR(first_text(result), "Echo: hi there");
    CHECK(!is_error_result(result));
    json_free(result);

    rc = call(hub, "everything__get-sum", "{\"a\":2,\"b\":40}", &result, &err);
    if (rc != 0) {
        free(err);
        rc = call(hub, "everything__add", "{\"a\":2,\"b\":40}", &result, &err);
    }
    CHECK(rc == 0);
    CHECK(contains(first_text(result), "42"));
    json_free(result);

    CHECK(call(hub, "everything__get-structured-content", "{\"location\":\"Chicago\"}", &result, &err) == 0);
    CHECK(json_is_object(json_object_get(result, "structuredContent")));
    json_free(result);

    /* A tool-level failure is a result with isError, not an error. */
    CHECK(call(hub, "everything__get-sum", "{\"a\":\"x\"}", &result, &err) == 0);
    CHECK(is_error_result(result));
    json_free(result);
    CHECK(call(hub, "everything__no-such-tool", NULL, &result, &err) == 0);
    CHECK(is_error_result(result));
    json_free(result);

    /* The server's environment: the minimal inherited set plus its configured env. */
    CHECK(call(hub, "everything__get-env", "{}", &result, &err) == 0);
    const char *env = first_text(result);
    CHECK(contains(env, "CONFIGURED") && contains(env, "PATH") && !contains(env, "CHIDORI_MCP_TEST_SECRET"));
    json_free(result);

    CHECK(mcp_hub_server_pid(hub, "everything") == pid); /* one process the whole time */
    mcp_hub_free(hub);
    CHECK(reaped(pid));
}

/* ---- hostile fake servers ---- */

TEST(mcp_server_dying_mid_call_is_a_clear_error_then_restarts)
{
    mcp_hub *hub = fake_hub("dies", "dies.py", 10000);
    CHECK(hub);
    json_t *result = NULL;
    char *err = NULL;
    CHECK(call(hub, "dies__ok", NULL, &result, &err) == 0);
    CHECK_STR(first_text(result), "ok");
    json_free(result);
    int pid = mcp_hub_server_pid(hub, "dies");
    CHECK(call(hub, "dies__misbehave", "{}", &result, &err) == -1);
    CHECK(contains(err, "MCP server 'dies' exited with status 3") && contains(err, "tools/call") &&
          contains(err, "partial line"));
    free(err);
    CHECK(mcp_hub_server_pid(hub, "dies") == 0 && reaped(pid));
    CHECK(call(hub, "dies__ok", NULL, &result, &err) == 0); /* restarted */
    CHECK_STR(first_text(result), "ok");
    json_free(result);
    CHECK(mcp_hub_server_pid(hub, "dies") != pid);
    pid = mcp_hub_server_pid(hub, "dies");
    /* Killed between calls: noticed and restarted on next use. */
    kill(pid, SIGKILL);
    for (int i = 0; i < 400; i++) { /* until it is a zombie */
        siginfo_t info = {0};
        if (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid) break;
        usleep(5 * 1000);
    }
    CHECK(call(hub, "dies__ok", NULL, &result, &err) == 0);
    json_free(result);
    CHECK(reaped(pid));
    mcp_hub_free(hub);
}

TEST(mcp_server_writing_garbage_is_a_clear_error)
{
    mcp_hub *hub = fake_hub("garbage", "garbage.py", 10000);
    CHECK(hub);
    json_t *result = NULL;
    char *err = NULL;
    CHECK(call(hub, "garbage__misbehave", NULL, &result, &err) == -1);
    CHECK(contains(err, "MCP server 'garbage' wrote a line that is not JSON") && contains(err, "Traceback"));
    CHECK(!strchr(err, '\x1b'));
    free(err);
    CHECK(mcp_hub_server_pid(hub, "garbage") == 0);
    CHECK(call(hub, "garbage__ok", NULL, &result, &err) == 0);
    json_free(result);
    mcp_hub_free(hub);
}

TEST(mcp_server_that_never_answers_times_out)
{
    mcp_hub *hub = fake_hub("silent", "silent.py", 1000);
    CHECK(hub);
    json_t *result = NULL;
    char *err = NULL;
    /* Start-up is outside the measure; the timeout covers it too, so a loaded machine gets a few
     * tries (each failure stops the server and the next call starts a new one). */
    int rc = -1;
    for (int i = 0; i < 5 && rc != 0; i++) {
        rc = call(hub, "silent__ok", NULL, &result, &err);
        if (rc != 0) free(err);
    }
    CHECK(rc == 0);
    json_free(result);
    int pid = mcp_hub_server_pid(hub, "silent");
    int64_t t0 = ms_now();
    CHECK(call(hub, "silent__misbehave", NULL, &result, &err) == -1);
    int64_t took = ms_now() - t0;
    CHECK(contains(err, "MCP server 'silent' did not answer tools/call within 1000 ms"));
    free(err);
    CHECK(took >= 950 && took < 1000 + 1500); /* stopping it (SIGTERM is ignored → SIGKILL) is bounded too */
    CHECK(reaped(pid));
    mcp_hub_free(hub);
}

TEST(mcp_server_flooding_is_capped)
{
    mcp_hub *hub = fake_hub("flood", "flood.py", 20000);
    CHECK(hub);
    json_t *result = NULL;
    char *err = NULL;
    /* One line over the default 16 MiB cap. */
    CHECK(call(hub, "flood__misbehave", "{\"kind\":\"huge\"}", &result, &err) == -1);
    CHECK(contains(err, "MCP server 'flood' wrote a message larger than 16777216 bytes"));
    free(err);
    /* Notifications without end: the per-call byte cap. */
    mcp_limits lim;
    mcp_limits_default(&lim);
    lim.max_bytes_per_call = 4 << 20;
    mcp_hub_set_limits(hub, &lim);
    CHECK(call(hub, "flood__misbehave", "{\"kind\":\"notifications\"}", &result, &err) == -1);
    CHECK(contains(err, "wrote more than 4194304 bytes without answering"));
    free(err);
    mcp_hub_free(hub);
}

TEST(mcp_server_stderr_is_prefixed_escaped_and_capped)
{
    mcp_hub *hub = fake_hub("noisy", "flood.py", 20000);
    CHECK(hub);
    char path[] = "/tmp/chidori-mcp-stderr-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    fflush(stderr);
    int saved = dup(2);
    dup2(fd, 2);
    json_t *result = NULL;
    char *err = NULL;
    int rc = call(hub, "noisy__misbehave", "{\"kind\":\"stderr\"}", &result, &err);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    close(fd);
    size_t len = 0;
    FILE *f = fopen(path, "r");
    char *text = xcalloc(1, 1 << 20);
    if (f) {
        len = fread(text, 1, (1 << 20) - 1, f);
        fclose(f);
    }
    unlink(path);
    CHECK(rc == 0);
    CHECK_STR(first_text(result), "done");
    json_free(result);
    CHECK(contains(text, "mcp[noisy]: noise \\x1b[2J line 0 zzz"));
    CHECK(!strchr(text, '\x1b'));
    CHECK(contains(text, "dropping the rest"));
    CHECK(len < 100 * 1024);
    free(text);
    mcp_hub_free(hub);
}

TEST(mcp_server_requests_are_answered_and_tools_paginate)
{
    mcp_hub *hub = fake_hub("req", "requests.py", 10000);
    CHECK(hub);
    json_t *tools = NULL, *result = NULL;
    char *err = NULL;
    CHECK(mcp_hub_list_tools(hub, &tools, &err) == 0);
    char *names = json_dump(tools, 0, NULL);
    CHECK(contains(names, "\"req__ok\"") && contains(names, "\"req__misbehave\"") && contains(names, "\"req__fails\"") &&
          contains(names, "\"req__rpcerror\"") && !contains(names, "bad name"));
    free(names);
    CHECK(tools->u.array.len == 4);
    json_free(tools);

    CHECK(call(hub, "req__misbehave", NULL, &result, &err) == 0);
    const char *text = first_text(result);
    CHECK(text);
    json_t *answers = json_parse(text, strlen(text), NULL, NULL);
    json_free(result);
    char *dump = json_dump(answers, 0, NULL);
    json_free(answers);
    CHECK(contains(dump, "{\"id\":\"p1\",\"jsonrpc\":\"2.0\",\"result\":{}}"));
    CHECK(contains(dump, "{\"error\":{\"code\":-32601,") && contains(dump, "\"id\":7,") && contains(dump, "\"id\":8,"));
    CHECK(contains(dump, "{\"error\":{\"code\":-32600,\"message\":\"Invalid Request\"},\"id\":null"));
    free(dump);

    CHECK(call(hub, "req__fails", NULL, &result, &err) == 0);
    CHECK(is_error_result(result) && contains(first_text(result), "it broke"));
    json_free(result);

    int pid = mcp_hub_server_pid(hub, "req");
    CHECK(call(hub, "req__rpcerror", NULL, &result, &err) == -1);
    CHECK(contains(err, "MCP server 'req': tools/call failed: error -32602: bad arguments"));
    free(err);
    CHECK(mcp_hub_server_pid(hub, "req") == pid); /* a JSON-RPC error keeps the server */

    CHECK(call(hub, "req__ok", "[1]", &result, &err) == -1 && contains(err, "arguments must be an object"));
    free(err);
    CHECK(call(hub, "nope__ok", NULL, &result, &err) == -1 && contains(err, "no MCP server 'nope'"));
    free(err);
    CHECK(call(hub, "req", NULL, &result, &err) == -1 && contains(err, "is not \"<server>__<tool>\""));
    free(err);
    mcp_hub_free(hub);
    CHECK(reaped(pid));
}

TEST(mcp_start_failures_are_clear)
{
    json_t *result = NULL, *tools = NULL;
    char *err = NULL;
    mcp_hub *hub = hub_text("{\"mcpServers\": {\"gone\": {\"command\": \"chidori-no-such-command\"}}}");
    CHECK(hub);
    CHECK(call(hub, "gone__x", NULL, &result, &err) == -1);
    CHECK(contains(err, "cannot start MCP server 'gone': command 'chidori-no-such-command': No such file or directory"));
    free(err);
    mcp_hub_free(hub);

    hub = hub_text("{\"mcpServers\": {\"cwd\": {\"command\": \"true\", \"cwd\": \"/nonexistent-dir\"}}}");
    CHECK(hub);
    CHECK(mcp_hub_list_tools(hub, &tools, &err) == -1 && contains(err, "cwd '/nonexistent-dir'"));
    free(err);
    mcp_hub_free(hub);

    hub = hub_text("{\"mcpServers\": {\"quits\": {\"command\": \"sh\", \"args\": [\"-c\", \"exit 4\"]}}}");
    CHECK(hub);
    CHECK(mcp_hub_list_tools(hub, &tools, &err) == -1);
    CHECK(contains(err, "MCP server 'quits' failed to start: MCP server 'quits' exited with status 4"));
    free(err);
    mcp_hub_free(hub);

    /* A server that lives on after stdin closes and ignores SIGTERM, with a child in its group:
     * freeing the hub still ends both and reaps the server. */
    hub = hub_text("{\"mcpServers\": {\"stubborn\": {\"command\": \"sh\", \"args\": [\"-c\", "
                   "\"trap '' TERM; sleep 30 & read line; echo '{\\\"jsonrpc\\\":\\\"2.0\\\",\\\"id\\\":1,"
                   "\\\"result\\\":{\\\"protocolVersion\\\":\\\"2025-06-18\\\",\\\"capabilities\\\":{}}}'; exec sleep 30\"]}}}");
    CHECK(hub);
    mcp_limits lim;
    mcp_limits_default(&lim);
    lim.shutdown_grace_ms = 100;
    mcp_hub_set_limits(hub, &lim);
    CHECK(mcp_hub_list_tools(hub, &tools, &err) == 0);
    CHECK(tools->u.array.len == 0); /* no tools capability */
    json_free(tools);
    int pid = mcp_hub_server_pid(hub, "stubborn");
    CHECK(pid > 0);
    int64_t t0 = ms_now();
    mcp_hub_free(hub);
    CHECK(ms_now() - t0 < 1500);
    CHECK(reaped(pid));
    /* Nothing left running in its process group (SIGKILL lands asynchronously: allow a moment). */
    int live = 1;
    for (int i = 0; i < 200 && (live = live_in_group(pid)) != 0; i++) usleep(5 * 1000);
    CHECK(live == 0);
}
