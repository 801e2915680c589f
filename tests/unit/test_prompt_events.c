/* test_prompt_events.c — a session's prompt events for its streams (src/serve/prompt_events.c):
 * each is sent after the records stored before it and before the next record; one placed before a
 * record the stream has already sent (relayed late from another node) is skipped, never sent after
 * that record. */
#define _GNU_SOURCE
#include "unit.h"
#include "serve/prompt_events.h"
#include "util/buf.h"

#include <stdlib.h>
#include <string.h>

static void push(prompt_events *pe, const char *type, const char *delta, size_t records)
{
    json_t *e = json_object();
    json_object_set(e, "type", json_string(type));
    json_object_set(e, "seq", json_number(2));
    json_object_set(e, "stream_id", json_string("s"));
    json_object_set(e, "prompt_type", json_string("summary"));
    if (delta) json_object_set(e, "delta", json_string(delta));
    prompt_events_push(pe, e, -1, records);
    json_free(e);
}

/* the next event's name and its delta (or ""), "" when there is none */
static char *next(prompt_events *pe, uint64_t *cursor, size_t sent)
{
    const char *name;
    char *data;
    if (!prompt_events_next(pe, cursor, sent, &name, &data)) return xstrdup("");
    const char *d = strstr(data, "\"delta\":\"");
    char *out = xasprintf("%s%s%.*s", name, d ? " " : "", d ? (int)strcspn(d + 9, "\"") : 0, d ? d + 9 : "");
    free(data);
    return out;
}

#define EXPECT_NEXT(pe, cursor, sent, want)                                                                          \
    do {                                                                                                           \
        char *got_ = next(pe, cursor, sent);                                                                       \
        CHECK_STR(got_, want);                                                                                     \
        free(got_);                                                                                                \
    } while (0)

TEST(prompt_events_placed_between_records_and_late_ones_skipped)
{
    prompt_events *pe = prompt_events_new();
    push(pe, "prompt_start", NULL, 1);
    push(pe, "prompt_delta", "a", 1);
    push(pe, "prompt_end", NULL, 1);
    push(pe, "prompt_start", NULL, 2);
    push(pe, "prompt_delta", "b", 2);
    /* a stream that has sent no record yet waits for the first */
    uint64_t c0 = 0;
    EXPECT_NEXT(pe, &c0, 0, "");
    CHECK(c0 == 0);
    /* after record 1: the first prompt's events, then a wait for record 2 */
    EXPECT_NEXT(pe, &c0, 1, "prompt_start");
    EXPECT_NEXT(pe, &c0, 1, "prompt_delta a");
    EXPECT_NEXT(pe, &c0, 1, "prompt_end");
    EXPECT_NEXT(pe, &c0, 1, "");
    /* a stream that has sent records 1 and 2 before these events came skips the first prompt's
     * (they belong before record 2) and gets the second's */
    uint64_t c1 = 0;
    EXPECT_NEXT(pe, &c1, 2, "prompt_start");
    EXPECT_NEXT(pe, &c1, 2, "prompt_delta b");
    EXPECT_NEXT(pe, &c1, 2, "");
    /* one that is past them all gets nothing, and its cursor is past them */
    uint64_t c2 = 0;
    EXPECT_NEXT(pe, &c2, 3, "");
    CHECK(c2 == 5);
    prompt_events_free(pe);
}
