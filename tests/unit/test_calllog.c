/* test_calllog.c — the call log's sink and its loading from JSON records (the server's path); its
 * caps, torn-tail cut, refusal of non-regular files and the pending-call check. */
#define _GNU_SOURCE
#include "unit.h"
#include "host/calllog.h"
#include "util/buf.h"
#include "util/files.h"
#include "settings/settings.h"
#include "../json_same_tree.h"

#include <fcntl.h>
#include <linux/magic.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/vfs.h>
#include <unistd.h>

typedef struct sink_state {
    int calls;
    double last_seq;
    bool fail;
} sink_state;

static int sink(void *ctx, const json_t *record, char **error)
{
    sink_state *st = ctx;
    st->calls++;
    st->last_seq = json_number_value(json_object_get(record, "seq"));
    if (st->fail) {
        *error = xstrdup("the store is full");
        return -1;
    }
    return 0;
}

static json_t *parse(const char *text)
{
    json_error jerr;
    return json_parse(text, strlen(text), NULL, &jerr);
}

TEST(calllog_sink_sees_each_append_and_can_refuse_it)
{
    calllog *log = calllog_new();
    sink_state st = {0};
    calllog_set_sink(log, sink, &st);
    json_t *args = json_object();
    char *error = NULL;
    CHECK(calllog_append(log, 1, 0, "log", args, NULL, NULL, 0, 0, &error) == 0);
    CHECK(st.calls == 1 && st.last_seq == 1);
    st.fail = true;
    CHECK(calllog_append(log, 2, 0, "log", args, NULL, NULL, 0, 0, &error) == -1);
    CHECK_STR(error, "the store is full");
    free(error);
    json_free(args);
    calllog_free(log);
}

TEST(calllog_loads_json_records_checked_like_lines)
{
    calllog *log = calllog_new();
    char *error = NULL;
    json_t *good = parse("[{\"seq\":2,\"parent_seq\":1,\"function\":\"log\",\"args\":{},\"result\":null},"
                         "{\"seq\":1,\"function\":\"call_agent\",\"args\":{\"path\":\"c.js\"},\"result\":{\"ok\":1}}]");
    CHECK(calllog_load_records(log, good, "db", &error) == 0);
    CHECK(calllog_count(log) == 2 && calllog_get(log, 0)->seq == 1); /* in seq order */
    calllog_free(log);
    json_free(good);

    const char *bad[][2] = {
        {"{}", "db: the call log must be an array of records"},
        {"[{\"seq\":0,\"function\":\"log\",\"args\":{}}]", "db: record 1: `seq` must be a positive integer"},
        {"[{\"seq\":1,\"function\":\"log\",\"args\":[]}]", "db: record 1: `args` must be an object"},
        {"[{\"seq\":1,\"function\":\"log\",\"args\":{}},{\"seq\":1,\"function\":\"log\",\"args\":{}}]",
         "db: duplicate `seq` 1"},
        {"[{\"seq\":1,\"function\":\"log\",\"args\":{},\"timestamp\":\"2026-07-08T00:00:00Z\",\"duration_us\":1},"
         "{\"seq\":1,\"function\":\"log\",\"args\":{},\"timestamp\":1}]",
         "db: duplicate `seq` 1"},
        {"[{\"seq\":1,\"function\":\"log\",\"args\":{},\"timestamp\":\"2026-07-08\"}]",
         "db: record 1: `timestamp` must be an RFC 3339 time (2026-07-08T03:57:42.291Z) or milliseconds since 1970"},
        {"[{\"seq\":1,\"function\":\"prompt\",\"args\":{},\"token_usage\":{\"input_tokens\":1.5,\"output_tokens\":1}}]",
         "db: record 1: `token_usage` must be an object with whole `input_tokens` and `output_tokens`"},
        {"[{\"seq\":1,\"function\":\"log\",\"args\":{},\"duration_ms\":\"3\"}]",
         "db: record 1: `duration_ms` must be a number of milliseconds"},
        {"[{\"seq\":2,\"parent_seq\":3,\"function\":\"log\",\"args\":{}}]",
         "db: record 1: `parent_seq` must be the seq of an earlier call"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        log = calllog_new();
        json_t *v = parse(bad[i][0]);
        CHECK(calllog_load_records(log, v, "db", &error) == -1);
        CHECK_STR(error, bad[i][1]);
        free(error);
        error = NULL;
        json_free(v);
        calllog_free(log);
    }
}

/* A seq that appears twice in the original's log (its rule: loaders index by seq, the first record
 * wins) is the first record of it, the later copy dropped; in ours it is damage (above). */
TEST(calllog_first_record_of_a_seq_wins_in_the_originals_logs)
{
    calllog *log = calllog_new();
    char *error = NULL;
    json_t *v = parse("[{\"seq\":2,\"function\":\"log\",\"args\":{\"n\":1},\"result\":\"first\",\"timestamp\":\"2026-07-08T00:00:00Z\"},"
                      "{\"seq\":1,\"function\":\"log\",\"args\":{},\"result\":null,\"timestamp\":\"2026-07-08T00:00:00Z\"},"
                      "{\"seq\":2,\"function\":\"mark\",\"args\":{\"n\":2},\"result\":\"second\",\"timestamp\":\"2026-07-08T00:00:01Z\"}]");
    CHECK(calllog_load_records(log, v, "db", &error) == 0);
    CHECK(calllog_held(log) == 2);
    const call_record *r = calllog_find_seq(log, 2);
    CHECK(r && !strcmp(r->function, "log") && !strcmp(json_string_value(r->result), "first"));
    json_free(v);
    calllog_free(log);
}

/* The original's record shape loads: RFC 3339 timestamp (any offset, 0-9 fraction digits), whole
 * duration_ms, token_usage; ours is written the same way and reads back equal. */
TEST(calllog_reads_and_writes_the_original_record_shape)
{
    calllog *log = calllog_new();
    char *error = NULL;
    json_t *v = parse("[{\"seq\":1,\"function\":\"prompt\",\"args\":{\"text\":\"hi\"},\"result\":\"yo\","
                      "\"duration_ms\":83,\"token_usage\":{\"input_tokens\":5,\"output_tokens\":2},"
                      "\"timestamp\":\"2026-07-08T03:57:42.291916Z\",\"response\":{\"model\":\"m\"}},"
                      "{\"seq\":2,\"function\":\"log\",\"args\":{},\"result\":null,\"duration_ms\":1.25,"
                      "\"timestamp\":1783483062291},"
                      "{\"seq\":3,\"function\":\"log\",\"args\":{},\"result\":null,\"duration_ms\":0,"
                      "\"timestamp\":\"2026-07-08T05:57:42+02:00\"}]");
    CHECK(calllog_load_records(log, v, "db", &error) == 0);
    const call_record *a = calllog_find_seq(log, 1), *b = calllog_find_seq(log, 2), *c = calllog_find_seq(log, 3);
    CHECK(a && !a->legacy && a->timestamp_ms == 1783483062291LL && a->duration_ms == 83);
    CHECK(json_number_value(json_object_get(a->token_usage, "input_tokens")) == 5);
    CHECK(json_is_object(json_object_get(a->extra, "response")));
    CHECK(b && b->legacy && b->timestamp_ms == 1783483062291LL && b->duration_ms == 1.25);
    CHECK(c && !c->legacy && c->timestamp_ms == 1783483062000LL);
    json_t *out = call_record_to_json(a);
    CHECK_STR(json_string_value(json_object_get(out, "timestamp")), "2026-07-08T03:57:42.291Z");
    CHECK(json_number_value(json_object_get(out, "duration_ms")) == 83);
    CHECK(json_object_get(out, "error") == NULL && json_object_get(out, "parent_seq") == NULL);
    CHECK(json_is_object(json_object_get(out, "response")) && json_is_object(json_object_get(out, "token_usage")));
    json_free(out);
    out = call_record_to_json(b); /* a fractional duration: floored, the rest in duration_us */
    CHECK(json_number_value(json_object_get(out, "duration_ms")) == 1);
    CHECK(json_number_value(json_object_get(out, "duration_us")) == 1250);
    json_free(out);
    json_free(v);
    calllog_free(log);
}

/* ---- caps, memory, torn tails, run files, pending calls (issue 23: findings 3, 9, 11) ---- */

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

static char *temp_dir(void)
{
    char tmpl[] = "/tmp/chidori-unit-calllog-XXXXXX";
    char *d = mkdtemp(tmpl);
    return d ? xstrdup(d) : NULL;
}

static void put_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static char *get_file(const char *path)
{
    size_t len;
    char *err = NULL;
    char *text = read_file_capped(path, 1 << 20, &len, &err);
    free(err);
    return text;
}

#define REC(seq, extra) "{\"seq\":" #seq extra ",\"function\":\"mark\",\"args\":{\"label\":\"m\"},\"result\":null}\n"

TEST(calllog_caps_stop_live_calls_and_replay_stops_at_the_same_place)
{
    calllog *log = calllog_new();
    calllog_caps caps = {3, 1 << 20};
    calllog_set_caps(log, &caps);
    json_t *args = json_object();
    const call_record *rec;
    uint64_t seq;
    char *error = NULL;
    for (int i = 0; i < 3; i++) {
        CHECK(calllog_lookup(log, 0, "mark", false, args, &rec, &seq, &error) == LOOKUP_LIVE);
        CHECK(calllog_append(log, seq, 0, "mark", args, NULL, NULL, 0, 0, &error) == 0);
    }
    CHECK(calllog_count(log) == 3 && calllog_held(log) == 0); /* appended records are not kept */
    CHECK(calllog_lookup(log, 0, "mark", false, args, &rec, &seq, &error) == LOOKUP_FAILED);
    CHECK(strstr(error, "call log limit reached") && strstr(error, "CHIDORI_LOG_MAX_RECORDS"));
    free(error), error = NULL;
    calllog_free(log);

    /* the same records loaded for a replay: the next call fails with the same words */
    char *dir = temp_dir();
    CHECK(dir);
    char *path = xasprintf("%s/records.jsonl", dir);
    put_file(path, REC(1, "") REC(2, "") REC(3, ""));
    log = calllog_new();
    calllog_set_caps(log, &caps);
    calllog_set_mode(log, LOG_REPLAY_ONLY);
    CHECK(calllog_load(log, path, &error) == 0);
    json_t *recorded = parse("{\"label\":\"m\"}");
    for (int i = 0; i < 3; i++) CHECK(calllog_lookup(log, 0, "mark", false, recorded, &rec, &seq, &error) == LOOKUP_REPLAYED);
    CHECK(calllog_lookup(log, 0, "mark", false, recorded, &rec, &seq, &error) == LOOKUP_FAILED);
    CHECK(strstr(error, "call log limit reached: the run has recorded 3 calls") != NULL);
    free(error), error = NULL;
    json_free(recorded);
    calllog_free(log);

    /* bytes: a log at or over max_bytes starts no live call */
    log = calllog_new();
    calllog_caps small = {1000, 1024};
    calllog_set_caps(log, &small);
    CHECK(calllog_load(log, path, &error) == 0);
    CHECK(calllog_lookup(log, 0, "mark", false, args, &rec, &seq, &error) == LOOKUP_LIVE);
    json_t *big = json_string("................................................................................................");
    for (int i = 0; i < 12; i++) CHECK(calllog_append(log, 4 + (uint64_t)i, 0, "mark", args, big, NULL, 0, 0, &error) == 0);
    CHECK(calllog_lookup(log, 0, "mark", false, args, &rec, &seq, &error) == LOOKUP_FAILED);
    CHECK(strstr(error, "CHIDORI_LOG_MAX_BYTES") != NULL);
    free(error), error = NULL;
    json_free(big);
    calllog_free(log);
    unlink(path);
    rmdir(dir);
    free(path);
    free(dir);
    json_free(args);
}

TEST(calllog_caps_from_settings_validates)
{
    calllog_caps caps;
    char *error = NULL;
    settings *none = settings_from_environ((char *[]){NULL}, &error);
    CHECK(none != NULL);
    calllog_caps_from_settings(&caps, none);
    settings_free(none);
    CHECK(caps.max_records == CALLLOG_DEFAULT_MAX_RECORDS && caps.max_bytes == CALLLOG_DEFAULT_MAX_BYTES);
    CHECK(caps.max_bytes + 2 * CALLLOG_RECORD_MAX_BYTES <= CALLLOG_LOAD_MAX_BYTES); /* what is written loads */
    const char *bad[][2] = {{"CHIDORI_LOG_MAX_RECORDS", "0"}, {"CHIDORI_LOG_MAX_RECORDS", "-1"},
                            {"CHIDORI_LOG_MAX_RECORDS", "1e5"}, {"CHIDORI_LOG_MAX_RECORDS", " 5"},
                            {"CHIDORI_LOG_MAX_BYTES", "1073741824"}, {"CHIDORI_LOG_MAX_BYTES", "1023"},
                            {"CHIDORI_LOG_MAX_BYTES", "99999999999999999999999"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *kv = xasprintf("%s=%s", bad[i][0], bad[i][1]);
        CHECK(settings_from_environ((char *[]){kv, NULL}, &error) == NULL);
        CHECK(error && strstr(error, bad[i][0]) != NULL);
        free(error), error = NULL;
        free(kv);
    }
    settings *set = settings_from_environ((char *[]){"CHIDORI_LOG_MAX_RECORDS=7", "CHIDORI_LOG_MAX_BYTES=4096", NULL}, &error);
    CHECK(set != NULL);
    calllog_caps_from_settings(&caps, set);
    CHECK(caps.max_records == 7 && caps.max_bytes == 4096);
    settings_free(set);
}

TEST(calllog_persist_cuts_a_torn_tail_and_keeps_every_complete_record)
{
    char *dir = temp_dir();
    CHECK(dir);
    char *path = xasprintf("%s/records.jsonl", dir);
    char *error = NULL;
    const char *cases[][2] = {
        {REC(1, "") REC(2, "") "{\"seq\":3,\"func", REC(1, "") REC(2, "")},
        {"{\"seq\":1,\"function\":\"mark\",\"args\":{}", ""}, /* nothing but a fragment */
        {REC(1, "") REC(2, ""), REC(1, "") REC(2, "")},        /* nothing to cut */
        {"", ""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        put_file(path, cases[i][0]);
        calllog *log = calllog_new();
        CHECK(calllog_load(log, path, &error) == 0);
        CHECK(calllog_persist_to(log, path, NULL, &error) == 0);
        char *now = get_file(path); /* nothing is cut before there is something to append */
        CHECK_STR(now, cases[i][0]);
        free(now);
        json_t *args = json_object();
        CHECK(calllog_append(log, 9, 0, "mark", args, NULL, NULL, 0, 0, &error) == 0);
        json_free(args);
        now = get_file(path); /* the torn tail was cut, then the record appended */
        CHECK(strncmp(now, cases[i][1], strlen(cases[i][1])) == 0 && strstr(now + strlen(cases[i][1]), "\"seq\":9") == now + strlen(cases[i][1]) + 1);
        free(now);
        calllog_free(log);
        log = calllog_new(); /* the log loads again, with the new record on a line of its own */
        CHECK(calllog_load(log, path, &error) == 0);
        CHECK(calllog_has_seq(log, 9));
        calllog_free(log);
    }
    unlink(path);
    rmdir(dir);
    free(path);
    free(dir);
}

/* The descriptor a log appends through, found by its path in /proc/self/fd, or -1. */
static int fd_of(const char *path)
{
    char real[PATH_MAX], link[64], target[PATH_MAX];
    if (!realpath(path, real)) return -1;
    for (int fd = 3; fd < 1024; fd++) {
        snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
        ssize_t n = readlink(link, target, sizeof target - 1);
        if (n < 0) continue;
        target[n] = '\0';
        if (!strcmp(target, real)) return fd;
    }
    return -1;
}

/* The descriptor of a log persisted in dir after one append: its F_GETFL flags, or -1. */
static int flags_of_a_log_in(const char *dir)
{
    char *path = xasprintf("%s/calls.jsonl", dir), *error = NULL;
    calllog *log = calllog_new();
    int flags = -1;
    if (calllog_persist_to(log, path, NULL, &error) == 0) {
        json_t *args = json_object();
        if (calllog_append(log, 1, 0, "mark", args, NULL, NULL, 0, 0, &error) == 0) {
            int fd = fd_of(path);
            flags = fd >= 0 ? fcntl(fd, F_GETFL) : -1;
        }
        json_free(args);
    }
    free(error);
    calllog_free(log);
    unlink(path);
    free(path);
    return flags;
}

/* durable-runs.md: a record is on disk before the agent sees the call's result. On tmpfs, ext4,
 * xfs, btrfs and f2fs the log's descriptor is O_DSYNC (each write is a write and an fdatasync in
 * one system call); elsewhere it is not, and each append is followed by its own fdatasync. */
TEST(calllog_appends_through_a_descriptor_that_writes_to_disk)
{
    static const unsigned long local[] = {EXT4_SUPER_MAGIC, XFS_SUPER_MAGIC, BTRFS_SUPER_MAGIC, TMPFS_MAGIC,
                                          F2FS_SUPER_MAGIC};
    char shm[] = "/dev/shm/chidori-unit-calllog-XXXXXX";
    char *dirs[2] = {temp_dir(), mkdtemp(shm) ? xstrdup(shm) : NULL};
    CHECK(dirs[0] != NULL);
    for (int i = 0; i < 2; i++) {
        if (!dirs[i]) continue; /* no /dev/shm here */
        struct statfs fs;
        CHECK(statfs(dirs[i], &fs) == 0);
        bool known = i == 1 && fs.f_type == TMPFS_MAGIC; /* /dev/shm is tmpfs: always one of them */
        for (size_t k = 0; k < sizeof local / sizeof *local; k++) known |= (unsigned long)fs.f_type == local[k];
        int flags = flags_of_a_log_in(dirs[i]);
        CHECK(flags != -1 && (flags & O_APPEND) != 0);
        CHECK(((flags & O_DSYNC) == O_DSYNC) == known);
        rmdir(dirs[i]);
        free(dirs[i]);
    }
}

TEST(calllog_refuses_a_fifo_symlink_or_directory_in_place_of_the_log)
{
    char *dir = temp_dir();
    CHECK(dir);
    char *path = xasprintf("%s/records.jsonl", dir), *real = xasprintf("%s/real.jsonl", dir);
    char *error = NULL;
    put_file(real, REC(1, ""));
    const char *kinds[] = {"FIFO", "symbolic link", "directory"};
    for (int k = 0; k < 3; k++) {
        int made = k == 0 ? mkfifo(path, 0600) : k == 1 ? symlink(real, path) : mkdir(path, 0700);
        CHECK(made == 0);
        calllog *log = calllog_new();
        CHECK(calllog_load(log, path, &error) == -1); /* would block forever on a FIFO */
        CHECK(strstr(error, kinds[k]) != NULL);
        free(error), error = NULL;
        CHECK(calllog_persist_to(log, path, NULL, &error) == -1);
        CHECK(strstr(error, kinds[k]) != NULL);
        free(error), error = NULL;
        calllog_free(log);
        if (k == 2) rmdir(path);
        else unlink(path);
    }
    unlink(real);
    rmdir(dir);
    free(path);
    free(real);
    free(dir);
}

TEST(calllog_pending_call_must_agree_with_the_log)
{
    calllog *log = calllog_new();
    char *error = NULL;
    /* 1 mark; 2 call_agent (open); 3 its mark; the pending input would be 4 under 2 */
    json_t *recs = parse("[{\"seq\":1,\"function\":\"mark\",\"args\":{}},"
                         "{\"seq\":3,\"parent_seq\":2,\"function\":\"mark\",\"args\":{}}]");
    CHECK(calllog_load_records(log, recs, "db", &error) == 0);
    uint64_t open2[] = {2}, open1[] = {1}, open12[] = {1, 2}, open5[] = {5}, open22[] = {2, 2};
    CHECK(calllog_check_pending(log, 4, 2, open2, 1, &error) == 0);
    struct { uint64_t seq, parent; const uint64_t *open; size_t n; const char *why; } bad[] = {
        {3, 2, open2, 1, "not newer"},            /* a recorded seq */
        {1, 2, open2, 1, "not newer"},
        {4, 1, open1, 1, "already has a record"}, /* reopening a completed call: a second seq 1 */
        {4, 2, open12, 2, "already has a record"},
        {4, 5, open5, 1, "not older"},
        {4, 2, open22, 2, "out of order"},
        {4, 0, NULL, 0, "neither completed nor is open"}, /* 3's parent is not open */
        {4, 0, open2, 1, "innermost"},
        {5, 2, open2, 1, "no complete record of call 4"}, /* 4 lost (a torn last line): a gap */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK(calllog_check_pending(log, bad[i].seq, bad[i].parent, bad[i].open, bad[i].n, &error) == -1);
        CHECK(strstr(error, bad[i].why) != NULL);
        free(error), error = NULL;
    }
    calllog_free(log);
    json_free(recs);
}

/* ---- the loader's fast reader of the lines we write (issue 22) ---- */


/* 1: the fast reader took the line and gave the general path's record; 0: it left the line to
 * that path; -1: it took a line that path refuses, or gave another record. */
static int fast_versus_general(const char *line)
{
    size_t len = strlen(line);
    call_record fast, slow;
    if (!call_record_read_line(line, len, &fast)) return 0;
    json_limits lim = {CALLLOG_RECORD_MAX_BYTES, JSON_DEFAULT_MAX_DEPTH, 0};
    json_error jerr;
    json_t *v = json_parse(line, len, &lim, &jerr);
    int same = v && call_record_parse(v, &slow) == NULL;
    if (same) {
        same = fast.seq == slow.seq && fast.parent_seq == slow.parent_seq && !strcmp(fast.function, slow.function) &&
               !fast.error && !slow.error && fast.duration_ms == slow.duration_ms &&
               fast.timestamp_ms == slow.timestamp_ms && fast.legacy == slow.legacy && fast.ours == slow.ours &&
               !fast.extra && !slow.extra && json_same_tree(call_record_args(&fast), call_record_args(&slow)) && json_same_tree(fast.result, slow.result) &&
               json_same_tree(fast.token_usage, slow.token_usage);
        call_record_clear(&slow);
    }
    call_record_clear(&fast);
    json_free(v);
    return same ? 1 : -1;
}

TEST(calllog_fast_reader_gives_the_general_paths_record_or_leaves_the_line)
{
    /* what call_record_line writes: every one is read fast, to the same record */
    call_record recs[3] = {{0}};
    recs[0] = (call_record){.seq = 1, .function = "mark", .args_tree = parse("{\"label\":\"tick\"}"), .result = json_null(),
                            .timestamp_ms = 1783483062291LL};
    recs[1] = (call_record){.seq = 9, .parent_seq = 4, .function = "prompt",
                            .args_tree = parse("{\"text\":\"h\\u00e9\\n\",\"n\":[1.5,-0,1e300,{}]}"),
                            .result = parse("{\"a\":[true,false,null]}"), .duration_ms = 12.3456,
                            .token_usage = parse("{\"input_tokens\":5,\"output_tokens\":2}"), .timestamp_ms = 0};
    recs[2] = (call_record){.seq = 9007199254740991ULL / 10000, .function = "step", .args_tree = parse("{}"),
                            .result = parse("\"x\""), .duration_ms = 1e11 - 0.001, .timestamp_ms = 253402300799999LL};
    for (int i = 0; i < 3; i++) {
        size_t n;
        char *line = call_record_line(&recs[i], &n);
        CHECK(fast_versus_general(line) == 1);
        free(line);
        json_free(recs[i].args_tree);
        json_free(recs[i].result);
        json_free(recs[i].token_usage);
    }
    /* near misses: each is left to the general path, or read to its very record */
    static const char *const lines[] = {
        "{\"seq\":0,\"function\":\"mark\",\"args\":{},\"result\":null,\"duration_ms\":0,\"timestamp\":\"2026-07-08T03:57:42.291Z\",\"duration_us\":0}",
        "{\"seq\":01,\"function\":\"mark\",\"args\":{},\"result\":null,\"duration_ms\":0,\"timestamp\":\"2026-07-08T03:57:42.291Z\",\"duration_us\":0}",
        "{\"seq\":1000000000000000,\"function\":\"mark\",\"args\":{},\"result\":null,\"duration_ms\":0,\"timestamp\":\"2026-07-08T03:57:42.291Z\",\"duration_us\":0}",
        "{\"seq\":2,\"parent_seq\":2,\"function\":\"mark\",\"args\":{},\"result\":null,\"duration_ms\":0,\"timestamp\":\"2026-07-08T03:57:42.291Z\",\"duration_us\":0}",
        "{\"seq\":2,\"parent_seq\":0,\"function\":\"mark\",\"args\":{},\"result\":null,\"duration_ms\":0,\"timestamp\":\"2026-07-08T03:57:42.291Z\",\"duration_us\":0}",
        "{\"seq\":2,\"function\":\"\",\"args\":{},\"result\":null,\"duration_ms\":0,\"timestamp\":\"2026-07-08T03:57:42.291Z\",\"duration_us\":0}",
        "{\"seq\":2,\"function\":\"m\\u0000\",\"args\":{},\"result\":null,\"duration_ms\":0,\"timestamp\":\"2026-07-08T03:57:42.291Z\",\"duration_us\":0}",
        "{\"seq\":2,\"function\":\"mark\",\"args\":[],\"result\":null,\"duration_ms\":0,\"timestamp\":\"2026-07-08T03:57:42.291Z\",\"duration_us\":0}",
        "{\"seq\":2,\"function\":\"mark\",\"args\":{\"a\":1,\"a\":2},\"result\":null,\"duration_ms\":0,\"timestamp\":\"2026-07-08T03:57:42.291Z\",\"duration_us\":0}",
        "{\"seq\":2,\"function\":\"mark\",\"args\": {\"a\":1} ,\"result\":null,\"duration_ms\":0,\"timestamp\":\"2026-07-08T03:57:42.291Z\",\"duration_us\":0}",
        "{\"seq\":2,\"function\":\"mark\",\"args\":{},\"result\":tru,\"duration_ms\":0,\"timestamp\":\"2026-07-08T03:57:42.291Z\",\"duration_us\":0}",
        "{\"seq\":2,\"function\":\"mark\",\"args\":{},\"result\":null,\"duration_ms\":1.5,\"timestamp\":\"2026-07-08T03:57:42.291Z\",\"duration_us\":0}",
        "{\"seq\":2,\"function\":\"mark\",\"args\":{},\"result\":null,\"duration_ms\":-1,\"timestamp\":\"2026-07-08T03:57:42.291Z\",\"duration_us\":0}",
        "{\"seq\":2,\"function\":\"mark\",\"args\":{},\"result\":null,\"duration_ms\":0,\"token_usage\":{\"input_tokens\":1},\"timestamp\":\"2026-07-08T03:57:42.291Z\",\"duration_us\":0}",
        "{\"seq\":2,\"function\":\"mark\",\"args\":{},\"result\":null,\"duration_ms\":0,\"token_usage\":{\"input_tokens\":1,\"output_tokens\":1.5},\"timestamp\":\"2026-07-08T03:57:42.291Z\",\"duration_us\":0}",
        "{\"seq\":2,\"function\":\"mark\",\"args\":{},\"result\":null,\"duration_ms\":0,\"timestamp\":\"2026-13-08T03:57:42.291Z\",\"duration_us\":0}",
        "{\"seq\":2,\"function\":\"mark\",\"args\":{},\"result\":null,\"duration_ms\":0,\"timestamp\":1783483062291,\"duration_us\":0}",
        "{\"seq\":2,\"function\":\"mark\",\"args\":{},\"result\":null,\"duration_ms\":0,\"timestamp\":\"2026-07-08T03:57:42.291Z\",\"error\":\"no\",\"duration_us\":0}",
        "{\"seq\":2,\"function\":\"mark\",\"args\":{},\"result\":null,\"duration_ms\":0,\"timestamp\":\"2026-07-08T03:57:42.291Z\",\"duration_us\":0,\"response\":1}",
        "{\"seq\":2,\"function\":\"mark\",\"args\":{},\"result\":null,\"duration_ms\":0,\"timestamp\":\"2026-07-08T03:57:42.291Z\",\"duration_us\":0} ",
        "{\"seq\":2,\"function\":\"mark\",\"args\":{},\"result\":null,\"duration_ms\":0,\"timestamp\":\"2026-07-08T03:57:42.291Z\",\"duration_us\":0}}",
        "{\"seq\":2,\"function\":\"mark\",\"args\":{},\"result\":null,\"duration_ms\":0,\"timestamp\":\"2026-07-08T03:57:42.291Z\",\"duration_us\":7}",
        "{\"seq\":2,\"function\":\"mark\",\"args\":{},\"result\":\"\\ud800\",\"duration_ms\":0,\"timestamp\":\"2026-07-08T03:57:42.291Z\",\"duration_us\":0}",
    };
    int fast = 0;
    for (size_t i = 0; i < sizeof lines / sizeof *lines; i++) {
        int r = fast_versus_general(lines[i]);
        if (r < 0) fprintf(stderr, "fast reader differs on: %s\n", lines[i]);
        CHECK(r >= 0);
        fast += r;
    }
    CHECK(fast == 3); /* a duplicate key in args, duration_us 7 and a lone surrogate: values the parser reads */
}

TEST(calllog_plain_args_stay_text_until_read_and_compare_by_text_then_by_value)
{
    /* plain args (issue 22): the loader keeps their text, not a tree; the first read parses them to
     * the general path's very tree (positions included), once */
    static const char *const plain_args[] = {
        "{}",
        "{\"label\":\"tick\"}",
        "{\"a\":[1,-0,0.25,1.5e3,-2E-2,true,false,null,[],{}],\"b\":{\"c\":{\"d\":\"x y\"}},\"a\":\"again\"}",
    };
    for (size_t i = 0; i < sizeof plain_args / sizeof *plain_args; i++) {
        char *line = xasprintf("{\"seq\":3,\"function\":\"mark\",\"args\":%s,\"result\":null,\"duration_ms\":0,"
                               "\"timestamp\":\"2026-07-08T03:57:42.291Z\",\"duration_us\":0}", plain_args[i]);
        call_record r;
        CHECK(call_record_read_line(line, strlen(line), &r));
        CHECK(r.args_tree == NULL && r.args_text && !strcmp(r.args_text, plain_args[i]));
        const json_t *first = call_record_args(&r);
        CHECK(first && first == call_record_args(&r));
        call_record_clear(&r);
        CHECK(fast_versus_general(line) == 1);
        free(line);
    }
    /* anything else (an escape, a space, a byte past ASCII) is parsed at once, as before */
    static const char *const other_args[] = {"{\"a\":\"\\n\"}", "{\"a\": 1}", "{\"a\":\"h\xc3\xa9\"}"};
    for (size_t i = 0; i < sizeof other_args / sizeof *other_args; i++) {
        char *line = xasprintf("{\"seq\":3,\"function\":\"mark\",\"args\":%s,\"result\":null,\"duration_ms\":0,"
                               "\"timestamp\":\"2026-07-08T03:57:42.291Z\",\"duration_us\":0}", other_args[i]);
        call_record r;
        CHECK(call_record_read_line(line, strlen(line), &r));
        CHECK(r.args_tree != NULL && r.args_text == NULL);
        call_record_clear(&r);
        CHECK(fast_versus_general(line) == 1);
        free(line);
    }
    /* the comparison: the same text, then the same values written otherwise, then other values */
    const char *line = "{\"seq\":3,\"function\":\"mark\",\"args\":{\"a\":1.0,\"b\":[\"x\",true]},\"result\":null,"
                       "\"duration_ms\":0,\"timestamp\":\"2026-07-08T03:57:42.291Z\",\"duration_us\":0}";
    call_record r;
    CHECK(call_record_read_line(line, strlen(line), &r));
    CHECK(r.args_text != NULL);
    json_t *same = parse("{\"a\":1,\"b\":[\"x\",true]}"), *reordered = parse("{\"b\":[\"x\",true],\"a\":1}");
    json_t *other = parse("{\"a\":1,\"b\":[\"x\",false]}"), *more = parse("{\"a\":1,\"b\":[\"x\",true],\"c\":null}");
    CHECK(r.args_tree == NULL);
    CHECK(call_record_args_equal(&r, same));      /* 1.0 is written 1: the values decide */
    CHECK(call_record_args_equal(&r, reordered)); /* another order of keys: equal values */
    CHECK(!call_record_args_equal(&r, other));
    CHECK(!call_record_args_equal(&r, more));
    CHECK(!call_record_args_equal(&r, NULL));
    call_record_clear(&r);
    json_free(same);
    json_free(reordered);
    json_free(other);
    json_free(more);
    /* a record whose args text is the agent's own answers without a parse */
    const char *exact = "{\"seq\":4,\"function\":\"mark\",\"args\":{\"label\":\"tick\",\"n\":[1,2.5]},\"result\":null,"
                        "\"duration_ms\":0,\"timestamp\":\"2026-07-08T03:57:42.291Z\",\"duration_us\":0}";
    json_t *mine = parse("{\"label\":\"tick\",\"n\":[1,2.5]}");
    CHECK(call_record_read_line(exact, strlen(exact), &r));
    CHECK(call_record_args_equal(&r, mine));
    CHECK(r.args_tree == NULL);
    call_record_clear(&r);
    json_free(mine);
}

TEST(calllog_loaded_records_share_their_function_names)
{
    /* 20 records of 17 function names: the first 16 names are one copy each, shared by their
     * records; past 16 each record has its own; all are freed with the log (ASan) */
    char *dir = temp_dir();
    CHECK(dir);
    char *path = xasprintf("%s/records.jsonl", dir);
    buf b = {0};
    for (int i = 1; i <= 20; i++)
        buf_printf(&b, "{\"seq\":%d,\"function\":\"op%d\",\"args\":{\"i\":%d},\"result\":%s,\"duration_ms\":0,"
                       "\"timestamp\":\"2026-07-08T03:57:42.291Z\",\"duration_us\":0}\n",
                   i, i <= 4 ? 0 : i - 2, i, i % 3 == 0 ? "true" : i % 3 == 1 ? "null" : "{\"x\":false}");
    put_file(path, b.data);
    buf_free(&b);
    calllog *log = calllog_new();
    char *error = NULL;
    CHECK(calllog_load(log, path, &error) == 0);
    CHECK(calllog_held(log) == 20);
    const call_record *r1 = calllog_get(log, 0), *r4 = calllog_get(log, 3);
    CHECK(!strcmp(r1->function, "op0") && r1->function == r4->function && r1->function_shared);
    CHECK(calllog_get(log, 18)->function_shared && !calllog_get(log, 19)->function_shared); /* op17, op18 */
    CHECK(!strcmp(calllog_get(log, 18)->function, "op17") && !strcmp(calllog_get(log, 19)->function, "op18"));
    CHECK(calllog_get(log, 0)->result->type == JSON_NULL && calllog_get(log, 2)->result->type == JSON_TRUE &&
          json_is_object(calllog_get(log, 1)->result));
    calllog_free(log);
    unlink(path);
    rmdir(dir);
    free(path);
    free(dir);
}

TEST(calllog_fast_reader_counts_values_and_depth_as_the_parser_does)
{
    /* args nested to exactly the depth limit loads; one level more is refused, with the
     * parser's words, by both readers alike */
    for (int extra = 0; extra < 2; extra++) {
        buf b = {0};
        buf_puts(&b, "{\"seq\":1,\"function\":\"mark\",\"args\":{\"a\":");
        int depth = JSON_DEFAULT_MAX_DEPTH - 1 + extra; /* the line and args are two levels */
        for (int i = 0; i < depth; i++) buf_putc(&b, '[');
        for (int i = 0; i < depth; i++) buf_putc(&b, ']');
        buf_puts(&b, "},\"result\":null,\"duration_ms\":0,\"timestamp\":\"2026-07-08T03:57:42.291Z\",\"duration_us\":0}");
        buf_putc(&b, '\0');
        CHECK(fast_versus_general(b.data) == (extra ? 0 : 1));
        buf_free(&b);
    }
}
