/* test_host.c — the seam rejects what it must, and module loads stay inside the agent's folder. */
#define _GNU_SOURCE
#include "unit.h"
#include "host/host.h"
#include "host/llm.h"
#include "host/ops.h"
#include "util/buf.h"
#include "util/clock.h"
#include "util/rfc3339.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char tmpdir[256];

static void write_file(const char *rel, const char *text)
{
    char *p = xasprintf("%s/%s", tmpdir, rel);
    FILE *f = fopen(p, "w");
    fputs(text, f);
    fclose(f);
    free(p);
}

static host *make_host(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/chidori-unit-XXXXXX");
    if (!mkdtemp(tmpdir)) return NULL;
    char *p = xasprintf("%s/proj", tmpdir);
    mkdir(p, 0755);
    free(p);
    p = xasprintf("%s/proj/lib", tmpdir);
    mkdir(p, 0755);
    free(p);
    write_file("proj/agent.js", "export default 1;");
    write_file("proj/lib/util.ts", "export const x = 1;");
    write_file("proj/lib/index.js", "export const y = 2;");
    write_file("secret.js", "export const secret = 42;");
    char *target = xasprintf("%s/secret.js", tmpdir);
    char *link = xasprintf("%s/proj/escape.js", tmpdir);
    if (symlink(target, link) != 0) perror("symlink");
    /* a relative symlink that stays inside; an absolute one is refused even when it points
     * inside (openat2 RESOLVE_BENEATH treats every absolute link as leaving) */
    char *link2 = xasprintf("%s/proj/inside.ts", tmpdir);
    if (symlink("lib/util.ts", link2) != 0) perror("symlink");
    char *inner = xasprintf("%s/proj/lib/util.ts", tmpdir);
    char *link3 = xasprintf("%s/proj/absolute.ts", tmpdir);
    if (symlink(inner, link3) != 0) perror("symlink");
    free(target), free(link), free(inner), free(link2), free(link3);
    char *root = xasprintf("%s/proj", tmpdir);
    char *error = NULL;
    host_config cfg = {.project_root = root, .log_out = stderr, .console_out = stderr};
    host *h = host_new(&cfg, &error);
    free(root);
    free(error);
    return h;
}

static void cleanup(host *h)
{
    host_free(h);
    char *cmd = xasprintf("rm -rf '%s'", tmpdir);
    if (system(cmd) != 0) perror("rm");
    free(cmd);
}

/* Loads specifier from importer; returns the key or NULL (error text in *error). */
static char *load(host *h, const char *spec, const char *importer, char **error)
{
    json_t *args = json_object();
    json_object_set(args, "specifier", json_string(spec));
    json_object_set(args, "importer", importer ? json_string(importer) : json_null());
    json_t *res = NULL;
    *error = NULL;
    int rc = host_internal_call(h, "__module_load", args, &res, error);
    json_free(args);
    if (rc != 0) return NULL;
    char *key = xstrdup(json_string_value(json_object_get(res, "key")));
    json_free(res);
    return key;
}

TEST(module_keys_are_relative_and_extensions_resolve)
{
    host *h = make_host();
    CHECK(h);
    char *err, *k;
    k = load(h, "agent.js", NULL, &err);
    CHECK_STR(k, "agent.js");
    free(k);
    k = load(h, "./lib/util", "agent.js", &err);
    CHECK_STR(k, "lib/util.ts");
    free(k);
    k = load(h, "./lib/util.js", "agent.js", &err); /* TypeScript's .js-for-.ts convention */
    CHECK_STR(k, "lib/util.ts");
    free(k);
    k = load(h, "./lib", "agent.js", &err);
    CHECK_STR(k, "lib/index.js");
    free(k);
    k = load(h, "../agent.js", "lib/util.ts", &err);
    CHECK_STR(k, "agent.js");
    free(k);
    k = load(h, "./inside.ts", "agent.js", &err); /* a symlink that stays inside is fine */
    CHECK_STR(k, "inside.ts");
    free(k);
    cleanup(h);
}

TEST(module_loads_cannot_leave_the_project_folder)
{
    host *h = make_host();
    CHECK(h);
    char *err, *k;
    const char *escapes[][2] = {
        {"../secret.js", "agent.js"},   {"./../secret.js", "agent.js"}, {"./lib/../../secret.js", "agent.js"},
        {"/etc/passwd", "agent.js"},    {"./escape.js", "agent.js"},   {"../../secret.js", "lib/util.ts"},
        {"fs", "agent.js"},             {"node_modules_pkg", "agent.js"}, {"./absolute.ts", "agent.js"},
        {"./lib/../../proj/agent.js", "agent.js"},
    };
    for (size_t i = 0; i < sizeof escapes / sizeof escapes[0]; i++) {
        k = load(h, escapes[i][0], escapes[i][1], &err);
        if (k) {
            char m[256];
            snprintf(m, sizeof m, "loaded %s from %s as %s", escapes[i][0], escapes[i][1], k);
            free(k);
            unit_fail(__FILE__, __LINE__, m);
            cleanup(h);
            return;
        }
        CHECK(err && *err);
        free(err);
    }
    k = load(h, "./missing.js", "agent.js", &err);
    CHECK(!k && strstr(err, "cannot find"));
    free(err);
    cleanup(h);
}

extern const effect_module prompt_module;

/* A prompt's rate-limit turn (llm_pace.h) belongs to its run tree: the tree's cancel flag, which a
 * run's nested agents and actors share (member_run.c copies the host_config) and each session of
 * a server has its own of (sessions.c). */
TEST(prompt_waits_take_turns_as_their_run_tree)
{
    atomic_int flag_a = 0, flag_b = 0;
    char *error = NULL;
    host_config ca = {.log_out = stderr, .console_out = stderr, .cancel = &flag_a};
    host_config cb = ca;
    cb.cancel = &flag_b;
    host *a = host_new(&ca, &error), *a2 = host_new(&ca, &error), *b = host_new(&cb, &error);
    CHECK(a && a2 && b && !error);
    const llm_config *la = host_module_state(a, &prompt_module), *la2 = host_module_state(a2, &prompt_module),
                     *lb = host_module_state(b, &prompt_module);
    CHECK(la && la2 && lb);
    CHECK(la->pace_owner == &flag_a && la2->pace_owner == &flag_a && lb->pace_owner == &flag_b);
    host_free(a), host_free(a2), host_free(b);
}

TEST(host_rejects_unknown_ops_and_bad_args)
{
    host *h = make_host();
    CHECK(h);
    json_t *res = NULL;
    char *err = NULL;
    json_t *args = json_object();
    CHECK(host_call(h, "no_such_op", args, &res, &err) == 1 && strstr(err, "unknown host operation"));
    free(err);
    json_t *notobj = json_array();
    CHECK(host_call(h, "log", notobj, &res, &err) == 1 && strstr(err, "object"));
    free(err);
    CHECK(host_call(h, "log", args, &res, &err) == 1 && strstr(err, "message"));
    free(err);
    json_free(notobj);
    json_free(args);
    cleanup(h);
}

TEST(log_is_recorded_in_the_call_log)
{
    host *h = make_host();
    CHECK(h);
    FILE *sink = fopen("/dev/null", "w");
    host_free(h);
    char *root = xasprintf("%s/proj", tmpdir);
    char *error = NULL;
    host_config cfg = {.project_root = root, .log_out = sink, .console_out = sink};
    h = host_new(&cfg, &error);
    free(root);
    CHECK(h);
    json_t *args = json_object();
    json_object_set(args, "message", json_string("hi"));
    json_t *res = NULL;
    CHECK(host_call(h, "log", args, &res, &error) == 0 && res && res->type == JSON_NULL);
    json_free(res);
    CHECK(host_record_count(h) == 1);
    json_t *cargs = json_object();
    json_object_set(cargs, "level", json_string("log"));
    json_object_set(cargs, "text", json_string("x"));
    CHECK(host_call(h, "console", cargs, &res, &error) == 0); /* console is not recorded */
    json_free(res);
    CHECK(host_record_count(h) == 1);
    json_free(args);
    json_free(cargs);
    fclose(sink);
    cleanup(h);
}

/* The lines of the log file at path, read afresh. */
static size_t lines_in(const char *path, char **text)
{
    FILE *f = fopen(path, "r");
    buf b = {0};
    char chunk[4096];
    size_t n;
    while (f && (n = fread(chunk, 1, sizeof chunk, f)) > 0) buf_append(&b, chunk, n);
    if (f) fclose(f);
    size_t lines = 0;
    for (size_t i = 0; i < b.len; i++) lines += b.data[i] == '\n';
    *text = buf_steal(&b);
    return lines;
}

static int call_op(host *h, const char *op, const char *key, const char *value)
{
    json_t *args = json_object(), *res = NULL;
    char *err = NULL;
    json_object_set(args, key, json_string(value));
    int rc = host_call(h, op, args, &res, &err);
    json_free(args);
    json_free(res);
    free(err);
    return rc;
}

/* A mark's record (OP_TRACE) waits in memory: it is written with the next record of another op,
 * before that op is performed, at calllog_flush, or once 200 ms of them wait; always in order.
 * A timestamp a worker gives (host_stamp_next_call) is taken only between the last record's and
 * now. */
TEST(trace_records_wait_in_order_and_stamps_stay_in_their_window)
{
    host *h = make_host();
    CHECK(h);
    FILE *sink = fopen("/dev/null", "w");
    host_free(h);
    char *root = xasprintf("%s/proj", tmpdir), *path = xasprintf("%s/records.jsonl", tmpdir), *text = NULL;
    char *error = NULL;
    host_config cfg = {.project_root = root, .log_out = sink, .console_out = sink};
    h = host_new(&cfg, &error);
    CHECK(h && calllog_persist_to(host_calllog(h), path, NULL, &error) == 0);
    for (int i = 0; i < 3; i++) CHECK(call_op(h, "mark", "label", "m") == HOST_OK);
    CHECK(host_record_count(h) == 3 && lines_in(path, &text) == 0);
    free(text);
    CHECK(call_op(h, "log", "message", "hi") == HOST_OK); /* another op: all four, in order */
    CHECK(lines_in(path, &text) == 4);
    const char *s1 = strstr(text, "\"seq\":1,"), *s3 = strstr(text, "\"seq\":3,"), *s4 = strstr(text, "\"seq\":4,");
    CHECK(s1 && s3 && s4 && s1 < s3 && s3 < s4 && strstr(s4, "\"function\":\"log\""));
    free(text);
    CHECK(call_op(h, "mark", "label", "m") == HOST_OK);
    CHECK(lines_in(path, &text) == 4);
    free(text);
    CHECK(calllog_flush(host_calllog(h), &error) == 0 && lines_in(path, &text) == 5);
    free(text);
    /* 200 ms after the first waiting one, the next goes out with it */
    CHECK(call_op(h, "mark", "label", "m") == HOST_OK);
    usleep(250 * 1000);
    CHECK(call_op(h, "mark", "label", "m") == HOST_OK);
    CHECK(lines_in(path, &text) == 7);
    free(text);
    /* stamps: before the last record, or in the future, are not taken; one in between is */
    int64_t now = clock_realtime_ms();
    usleep(30 * 1000);
    char want[RFC3339_MAX], seen[RFC3339_MAX + 16];
    host_stamp_next_call(h, 1);
    CHECK(call_op(h, "mark", "label", "early") == HOST_OK);
    host_stamp_next_call(h, now + 3600 * 1000);
    CHECK(call_op(h, "mark", "label", "late") == HOST_OK);
    usleep(30 * 1000);
    int64_t between = clock_realtime_ms() - 10;
    host_stamp_next_call(h, between);
    CHECK(call_op(h, "mark", "label", "between") == HOST_OK);
    CHECK(call_op(h, "mark", "label", "unstamped") == HOST_OK);
    CHECK(calllog_flush(host_calllog(h), &error) == 0 && lines_in(path, &text) == 11);
    rfc3339_format_ms(1, want);
    snprintf(seen, sizeof seen, "\"timestamp\":\"%s\"", want);
    CHECK(!strstr(text, seen));
    rfc3339_format_ms(now + 3600 * 1000, want);
    snprintf(seen, sizeof seen, "\"timestamp\":\"%s\"", want);
    CHECK(!strstr(text, seen));
    rfc3339_format_ms(between, want);
    snprintf(seen, sizeof seen, "\"timestamp\":\"%s\"", want);
    const char *b = strstr(text, "\"between\"");
    CHECK(b && strstr(b, seen) && strstr(b, seen) < strstr(b, "\n"));
    free(text);
    free(root);
    free(path);
    fclose(sink);
    cleanup(h);
}
