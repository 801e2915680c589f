/* test_calllog_cursor.c — only the call log moves its replay cursor: chidori.step's cache takes a
 * record only when it is that step's, and a paused run's answer is checked, queued and appended
 * in one call (calllog_answer_pending). */
#include "unit.h"
#include "host/calllog.h"
#include "util/buf.h"

#include <stdlib.h>

static json_t *parse(const char *text)
{
    json_error jerr;
    return json_parse(text, strlen(text), NULL, &jerr);
}

TEST(calllog_take_step_consumes_only_the_steps_own_record)
{
    calllog *log = calllog_new();
    char *error = NULL;
    json_t *recs = parse("[{\"seq\":1,\"function\":\"step\",\"args\":{\"name\":\"a\",\"value\":1},\"result\":1},"
                         "{\"seq\":2,\"function\":\"log\",\"args\":{\"message\":\"m\"},\"result\":null}]");
    CHECK(calllog_load_records(log, recs, "t", &error) == 0);
    calllog_set_mode(log, LOG_REPLAY_THEN_LIVE);
    json_t *a = json_string("a"), *b = json_string("b");
    CHECK(calllog_take_step(log, 0, "step", b) == NULL);      /* another step's name */
    CHECK(calllog_take_step(log, 7, "step", a) == NULL);      /* another parent's cursor */
    CHECK(calllog_peek(log, 0) && calllog_peek(log, 0)->seq == 1); /* nothing was consumed */
    const call_record *r = calllog_take_step(log, 0, "step", a);
    CHECK(r && r->seq == 1 && r->consumed);
    CHECK(calllog_peek(log, 0) && calllog_peek(log, 0)->seq == 2);
    CHECK(calllog_take_step(log, 0, "step", a) == NULL);      /* the next record is not a step */
    CHECK(calllog_peek(log, 0)->seq == 2);
    json_free(a);
    json_free(b);
    json_free(recs);
    calllog_free(log);
}

TEST(calllog_answer_pending_checks_then_queues_and_appends)
{
    calllog *log = calllog_new();
    char *error = NULL;
    json_t *recs = parse("[{\"seq\":1,\"function\":\"log\",\"args\":{\"message\":\"m\"},\"result\":null}]");
    CHECK(calllog_load_records(log, recs, "t", &error) == 0);
    json_t *args = parse("{\"prompt\":\"name?\"}"), *answer = json_string("Ada");
    /* a pending seq that is not newer than the log is refused, and nothing changes */
    CHECK(calllog_answer_pending(log, 1, 0, NULL, 0, "input", args, answer, 0, &error) == -1 && error);
    free(error);
    error = NULL;
    CHECK(calllog_count(log) == 1);
    CHECK(calllog_answer_pending(log, 2, 0, NULL, 0, "input", args, answer, 0, &error) == 0);
    CHECK(calllog_count(log) == 2);
    calllog_set_mode(log, LOG_REPLAY_THEN_LIVE);
    const call_record *rec = NULL;
    uint64_t seq = 0;
    json_t *logged = parse("{\"message\":\"m\"}");
    CHECK(calllog_lookup(log, 0, "log", false, logged, &rec, &seq, &error) == LOOKUP_REPLAYED);
    json_free(logged);
    /* the answer is held unconsumed and answers the resumed run's input */
    CHECK(calllog_lookup(log, 0, "input", false, args, &rec, &seq, &error) == LOOKUP_REPLAYED);
    CHECK(rec && json_is_string(rec->result) && !strcmp(rec->result->u.string.bytes, "Ada"));
    json_free(args);
    json_free(answer);
    json_free(recs);
    calllog_free(log);
}
