/* test_member.c — the member primitive (runner/member_run.h, host/member.h): several sub-runs at once,
 * each in its own seq range under the starting call, completed / paused / failed / stopped, and
 * their records merged into the caller's log so that a replay absorbs them. In-process engines
 * (the isolated path is the same code with supervisor_run, covered by tests/cases_branch.py). */
#include "unit.h"
#include "engine/engine.h"
#include "host/host.h"
#include "host/member.h"
#include "runner/member_run.h"
#include "util/buf.h"
#include "util/files.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void put(const char *dir, const char *name, const char *text)
{
    char *p = xasprintf("%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    fputs(text, f);
    fclose(f);
    free(p);
}

typedef struct fixture {
    char dir[64];
    FILE *sink;
    host *parent;
    member_env env;
} fixture;

static void fixture_open(fixture *fx)
{
    strcpy(fx->dir, "/tmp/chidori-member-XXXXXX");
    if (!mkdtemp(fx->dir)) abort();
    put(fx->dir, "ok.js",
        "import { run, chidori } from 'chidori:agent';\n"
        "import fs from 'node:fs';\n"
        "run(async (input) => { await chidori.log('hello ' + input.n);\n"
        "  await chidori.log('again');\n"
        "  return { n: input.n * 2, seen: fs.existsSync('/shared.txt') ? fs.readFileSync('/shared.txt', 'utf8') : null }; });\n");
    put(fx->dir, "ask.js",
        "import { run, chidori } from 'chidori:agent';\n"
        "run(async () => { await chidori.log('before'); return await chidori.input('which way?'); });\n");
    put(fx->dir, "bad.js",
        "import { run, chidori } from 'chidori:agent';\n"
        "run(async () => { await chidori.log('x'); throw new Error('boom'); });\n");
    put(fx->dir, "spin.js",
        "import { run, chidori } from 'chidori:agent';\n"
        "run(async () => { for (;;) { await chidori.log('tick'); } });\n");
    fx->sink = fopen("/dev/null", "w");
    host_config hc = {.project_root = fx->dir, .log_out = fx->sink, .console_out = fx->sink};
    engine_config base = {.seed = 7, .clock_start_ms = 1000};
    engine_limits_from_settings(&base.limits, NULL);
    member_env_init(&fx->env, &base, &hc, false, NULL);
    hc.members = &fx->env.ops;
    char *error = NULL;
    fx->parent = host_new(&hc, &error);
    if (!fx->parent) abort();
}

static void fixture_close(fixture *fx)
{
    host_free(fx->parent);
    member_env_clear(&fx->env);
    fclose(fx->sink);
    char *cmd = xasprintf("rm -rf '%s'", fx->dir);
    if (system(cmd) != 0) { /* a leftover temp folder only */ }
    free(cmd);
}

static host_member *start(fixture *fx, const char *entry, const char *input, uint64_t anchor, uint64_t base,
                          const json_t *seed)
{
    const host_members *ops = host_members_of(fx->parent);
    host_member_spec spec = {.entry = entry, .input_json = input, .anchor_seq = anchor, .seq_base = base,
                             .seq_end = base + 10000 + 1, .vfs_seed = seed, .salt = base};
    char *error = NULL;
    host_member *m = ops->start(ops->ctx, fx->parent, &spec, &error);
    free(error);
    return m;
}

TEST(member_runs_side_by_side_in_their_ranges_and_merge_into_the_parent)
{
    fixture fx;
    fixture_open(&fx);
    const host_members *ops = host_members_of(fx.parent);
    CHECK(ops);
    json_error jerr;
    json_t *seed = json_parse("{\"/shared.txt\": \"from the parent\"}", 34, NULL, &jerr);
    host_member *ms[3] = {start(&fx, "ok.js", "{\"n\":1}", 2, 20000, seed), start(&fx, "ask.js", "{}", 2, 30000, NULL),
                          start(&fx, "bad.js", "{}", 2, 40000, NULL)};
    json_free(seed);
    CHECK(ms[0] && ms[1] && ms[2]);
    for (int i = 0; i < 3; i++) CHECK(ops->wait(ms[i], 60000));

    const host_member_outcome *a = ops->outcome(ms[0]), *b = ops->outcome(ms[1]), *c = ops->outcome(ms[2]);
    CHECK(a->status == MEMBER_COMPLETED);
    CHECK_STR(a->output_json, "{\"n\":2,\"seen\":\"from the parent\"}");
    CHECK(a->records->u.array.len == 2);
    const json_t *r0 = a->records->u.array.items[0];
    CHECK(json_number_value(json_object_get(r0, "seq")) == 20001);
    CHECK(json_number_value(json_object_get(r0, "parent_seq")) == 2);
    CHECK(b->status == MEMBER_PAUSED);
    CHECK_STR(b->pending_prompt, "which way?");
    CHECK(json_number_value(json_object_get(b->pending, "seq")) == 30002);
    CHECK(c->status == MEMBER_FAILED && strstr(c->error, "boom"));

    /* merged in order, the parent's next seq is past them all; the parent's log is its own */
    calllog *log = host_calllog(fx.parent);
    calllog_reserve_seq(log); /* the starting call's own seq (1) */
    calllog_reserve_seq(log); /* ... 2 */
    char *error = NULL;
    CHECK(host_member_merge(fx.parent, a->records, 20001, 30001, &error) == 0);
    CHECK(host_member_merge(fx.parent, b->records, 30001, 40001, &error) == 0);
    CHECK(host_member_merge(fx.parent, c->records, 30001, 40001, &error) == -1); /* out of its range */
    CHECK(strstr(error, "outside its range"));
    free(error);
    CHECK(calllog_count(log) == 3);
    CHECK(calllog_reserve_seq(log) == 30002);
    for (int i = 0; i < 3; i++) ops->free(ms[i]);
    fixture_close(&fx);
}

TEST(member_stop_ends_a_member_that_would_run_forever)
{
    fixture fx;
    fixture_open(&fx);
    const host_members *ops = host_members_of(fx.parent);
    host_member *m = start(&fx, "spin.js", "{}", 5, 20000, NULL);
    CHECK(m);
    CHECK(!ops->wait(m, 50)); /* still running */
    CHECK(ops->outcome(m) == NULL);
    ops->stop(m);
    host_member *one[1] = {m};
    CHECK(ops->wait_any(one, 1, 60000) == 0);
    CHECK(ops->outcome(m)->status == MEMBER_STOPPED);
    ops->free(m);
    fixture_close(&fx);
}

TEST(member_resumes_from_its_records_with_an_answer)
{
    fixture fx;
    fixture_open(&fx);
    const host_members *ops = host_members_of(fx.parent);
    host_member *m = start(&fx, "ask.js", "{}", 2, 30000, NULL);
    CHECK(m && ops->wait(m, 60000));
    const host_member_outcome *o = ops->outcome(m);
    CHECK(o->status == MEMBER_PAUSED);
    /* its records plus the answer as the input's record: a new member replays them and goes on */
    json_t *records = json_copy(o->records);
    json_error jerr;
    const char *ans = "{\"seq\":30002,\"parent_seq\":2,\"function\":\"input\",\"args\":{\"prompt\":\"which way?\"},"
                      "\"result\":\"left\",\"duration_ms\":0,\"timestamp\":\"2026-01-01T00:00:00Z\"}";
    json_array_push(records, json_parse(ans, strlen(ans), NULL, &jerr));
    ops->free(m);
    host_member_spec spec = {.entry = "ask.js", .input_json = "{}", .anchor_seq = 2, .seq_base = 30000,
                             .seq_end = 40001, .records = records};
    char *error = NULL;
    m = ops->start(ops->ctx, fx.parent, &spec, &error);
    json_free(records);
    CHECK(m && ops->wait(m, 60000));
    o = ops->outcome(m);
    CHECK(o->status == MEMBER_COMPLETED);
    CHECK_STR(o->output_json, "\"left\"");
    CHECK(o->records->u.array.len == 0); /* everything replayed */
    CHECK(o->live_calls == 0);
    ops->free(m);
    fixture_close(&fx);
}
