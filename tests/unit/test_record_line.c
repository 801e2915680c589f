/* test_record_line.c — a call record's line, written straight from the record
 * (call_record_line, and what calllog appends), is byte for byte the compact JSON of the record's
 * tree (call_record_to_json): the fast path may never change what a log holds. */
#include "unit.h"
#include "host/calllog.h"
#include "util/buf.h"
#include "util/files.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Records of every shape the writer takes: failed, with usage, nested, with its own keys (one with
 * a NUL in its name, which the tree renames), big and fractional numbers, text to escape. */
static const char *const RECORDS =
    "[{\"seq\":1,\"function\":\"mark\",\"args\":{\"label\":\"tick\"},\"result\":null,\"duration_ms\":0,"
    "\"timestamp\":\"2026-12-02T05:16:00.696Z\",\"duration_us\":0},"
    "{\"seq\":2,\"parent_seq\":1,\"function\":\"prompt\",\"args\":{\"text\":\"q\\\"\\\\\\n\\u0001\\u00e9\\ud83d\\ude00\","
    "\"n\":[1,-2.5,1e21,1.5e-7,-0,9007199254740993]},\"result\":{\"text\":\"a\\u2028b\",\"o\":{}},"
    "\"duration_ms\":12.75,\"token_usage\":{\"input_tokens\":3,\"output_tokens\":4},"
    "\"timestamp\":\"1969-12-31T23:59:59.999Z\",\"duration_us\":12750},"
    "{\"seq\":3,\"function\":\"http\",\"args\":{},\"error\":\"refused: \\\"x\\\"\",\"duration_ms\":1,"
    "\"timestamp\":\"9999-12-31T23:59:59.999Z\",\"duration_us\":1000,\"tree_ticks\":77,"
    "\"ends_run\":true,\"own\":{\"k\":[true,false,null]}},"
    "{\"seq\":4,\"function\":\"f\",\"args\":{\"a\":1},\"result\":[],\"timestamp\":0,"
    "\"x\":1,\"x\\u0000y\":2},"
    "{\"seq\":9007199254740991,\"function\":\"g\",\"args\":{},\"result\":\"\",\"duration_ms\":1e14,"
    "\"timestamp\":\"0000-01-01T00:00:00.000Z\",\"duration_us\":0}]";

static char *tree_line(const call_record *r)
{
    json_t *j = call_record_to_json(r);
    char *line = json_dump(j, JSON_COMPACT, NULL);
    json_free(j);
    return line;
}

TEST(calllog_record_line_matches_the_tree)
{
    json_error jerr;
    json_t *recs = json_parse(RECORDS, strlen(RECORDS), NULL, &jerr);
    CHECK(recs != NULL);
    calllog *log = calllog_new();
    char *error = NULL;
    CHECK(calllog_load_records(log, recs, "t", &error) == 0);
    CHECK(calllog_held(log) == 5);
    for (size_t i = 0; i < calllog_held(log); i++) {
        const call_record *r = calllog_get(log, i);
        size_t n = 0;
        char *fast = call_record_line(r, &n);
        char *slow = tree_line(r);
        CHECK_STR(fast, slow);
        CHECK(n == strlen(slow));
        free(fast);
        free(slow);
    }
    json_free(recs);
    calllog_free(log);
}

/* What append writes to the file is the tree's text, for kept (a resume's answer) and unkept
 * records, with and without a result. */
TEST(calllog_appended_lines_match_the_tree)
{
    char dir[] = "/tmp/chidori-record-line-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char *path = xasprintf("%s/records.jsonl", dir);
    calllog *log = calllog_new();
    char *error = NULL;
    CHECK(calllog_persist_to(log, path, NULL, &error) == 0);
    json_error jerr;
    const char *args_text = "{\"label\":\"t\\u00e9\",\"data\":{\"n\":[1,2.5]}}";
    json_t *args = json_parse(args_text, strlen(args_text), NULL, &jerr);
    json_t *result = json_string("ok");
    json_t *usage = json_object();
    json_object_set(usage, "input_tokens", json_number(5));
    json_object_set(usage, "output_tokens", json_number(6));
    json_t *extra = json_object();
    json_object_set(extra, "tree_ticks", json_number(12));
    CHECK(calllog_append_full(log, 1, 0, "mark", args, NULL, NULL, 0.5, 1796150149003, NULL, NULL, &error) == 0);
    CHECK(calllog_append_full(log, 2, 1, "prompt", args, result, NULL, 3.25, 1796150149030, usage, extra, &error) == 0);
    CHECK(calllog_append_full(log, 3, 0, "http", args, NULL, "refused", 1, 0, NULL, NULL, &error) == 0);
    CHECK(calllog_append_for_replay(log, 4, 0, "input", args, result, 1796150149031, &error) == 0);
    calllog_free(log);

    /* the file, loaded back, holds the four records; each line is its record's tree text */
    size_t len = 0;
    char *text = read_file_capped(path, 1 << 20, &len, &error);
    CHECK(text != NULL);
    calllog *back = calllog_new();
    CHECK(calllog_load(back, path, &error) == 0);
    CHECK(calllog_held(back) == 4);
    const char *at = text;
    for (size_t i = 0; i < 4; i++) {
        const char *nl = strchr(at, '\n');
        CHECK(nl != NULL);
        char *slow = tree_line(calllog_get(back, i));
        CHECK((size_t)(nl - at) == strlen(slow) && memcmp(at, slow, strlen(slow)) == 0);
        free(slow);
        at = nl + 1;
    }
    CHECK(*at == '\0');
    calllog_free(back);
    free(text);
    json_free(args);
    json_free(result);
    json_free(usage);
    json_free(extra);
    unlink(path);
    rmdir(dir);
    free(path);
}
