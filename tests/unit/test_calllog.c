/* test_calllog.c — the call log's sink and its loading from JSON records (the server's path). */
#define _GNU_SOURCE
#include "unit.h"
#include "host/calllog.h"
#include "util/buf.h"

#include <stdlib.h>

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
