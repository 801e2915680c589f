/* test_record_form.c — the original chidori's record shapes (record_form.h, util/rfc3339.h): a
 * prompt's and a tool's record written from what was performed, the agent's result read back
 * from it unchanged (key order included), the original's own records matched and answered, and
 * RFC 3339 times both ways. */
#include "unit.h"
#include "host/record_form.h"
#include "util/rfc3339.h"

#include <stdio.h>
#include <time.h>

#include <stdlib.h>

static json_t *parse(const char *text)
{
    json_error jerr;
    return json_parse(text, strlen(text), NULL, &jerr);
}

static char *dump(const json_t *v)
{
    size_t n;
    return json_dump(v, JSON_COMPACT, &n);
}

/* Encode, then load the record as a file would hold it, then decode: the reply comes back byte for byte. */
static json_t *round_trip(const record_form *form, const char *fn, const json_t *args, const json_t *result,
                          json_t **record_out)
{
    json_t *ra, *rr, *tu, *ex;
    form->encode(args, result, &ra, &rr, &tu, &ex);
    call_record r = {.seq = 1, .function = (char *)fn, .args_tree = ra, .result = rr, .token_usage = tu, .extra = ex,
                     .timestamp_ms = 1783483062291LL, .duration_ms = 2.5};
    json_t *line = call_record_to_json(&r);
    call_record back;
    const char *why = call_record_parse(line, &back);
    json_t *seen = why ? NULL : form->decode(&back);
    if (!why && !form->matches(&back, args)) {
        json_free(seen);
        seen = NULL;
    }
    if (!why) call_record_clear(&back);
    json_free(ra), json_free(rr), json_free(tu), json_free(ex);
    *record_out = line;
    return seen;
}

TEST(prompt_record_takes_the_original_shape_and_gives_the_reply_back)
{
    json_t *args = parse("{\"messages\":[{\"role\":\"user\",\"content\":\"hello\"}],\"maxTokens\":100,\"temperature\":0.7}");
    json_t *reply = parse("{\"content\":\"hi\",\"toolCalls\":[],\"stopReason\":\"end_turn\",\"usage\":{\"inputTokens\":7,"
                          "\"outputTokens\":3,\"cacheReadTokens\":2},\"model\":\"claude-x\",\"provider\":\"anthropic\","
                          "\"id\":\"msg_1\"}");
    json_t *rec;
    json_t *seen = round_trip(&prompt_record_form, "prompt", args, reply, &rec);
    CHECK(seen != NULL);
    char *a = dump(seen), *b = dump(reply);
    CHECK_STR(a, b); /* the very reply, keys in their order */
    free(a), free(b);
    CHECK_STR(json_string_value(json_object_get(rec, "result")), "hi"); /* a plain prompt's result is its text */
    const json_t *ra = json_object_get(rec, "args");
    CHECK_STR(json_string_value(json_object_get(ra, "text")), "hello");
    CHECK_STR(json_string_value(json_object_get(ra, "model")), "claude-x");
    CHECK(json_number_value(json_object_get(ra, "max_tokens")) == 100);
    CHECK(json_number_value(json_object_get(ra, "temperature")) == 0.7);
    CHECK(json_object_get(ra, "type") && json_object_get(ra, "type")->type == JSON_NULL);
    CHECK(json_string_value(json_object_get(ra, "request_digest")) && strlen(json_string_value(json_object_get(ra, "request_digest"))) == 64);
    const json_t *tu = json_object_get(rec, "token_usage");
    CHECK(json_number_value(json_object_get(tu, "input_tokens")) == 7 && json_number_value(json_object_get(tu, "output_tokens")) == 3);
    CHECK(json_number_value(json_object_get(tu, "cache_read_tokens")) == 2);
    CHECK(json_object_get(tu, "cache_creation_tokens") == NULL); /* 0: omitted */
    CHECK(json_number_value(json_object_get(rec, "duration_ms")) == 2 && json_number_value(json_object_get(rec, "duration_us")) == 2500);
    CHECK_STR(json_string_value(json_object_get(rec, "timestamp")), "2026-07-08T03:57:42.291Z");
    json_free(seen), json_free(rec), json_free(reply), json_free(args);
}

TEST(prompt_record_of_a_tool_turn_is_the_original_response_object)
{
    json_t *args = parse("{\"messages\":[{\"role\":\"user\",\"content\":\"go\"}],\"tools\":[{\"name\":\"s__f\",\"parameters\":{}}]}");
    json_t *reply = parse("{\"content\":\"\",\"toolCalls\":[{\"id\":\"t1\",\"name\":\"s__f\",\"input\":{\"q\":1}}],"
                          "\"stopReason\":\"tool_use\",\"usage\":{\"inputTokens\":1,\"outputTokens\":2},\"model\":\"m\",\"provider\":\"openai\"}");
    json_t *rec;
    json_t *seen = round_trip(&prompt_record_form, "prompt", args, reply, &rec);
    CHECK(seen && json_equal(seen, reply));
    const json_t *res = json_object_get(rec, "result");
    CHECK(json_is_object(res) && json_is_array(json_object_get(res, "blocks")));
    CHECK_STR(json_string_value(json_object_get(res, "stopReason")), "tool_use");
    CHECK(json_number_value(json_object_get(res, "outputTokens")) == 2);
    const json_t *names = json_object_get(json_object_get(rec, "args"), "tools");
    CHECK(json_is_array(names) && names->u.array.len == 1 && !strcmp(json_string_value(names->u.array.items[0]), "s__f"));
    json_free(seen), json_free(rec), json_free(reply), json_free(args);
}

TEST(prompt_record_keeps_a_reasoning_models_reasoning_once)
{
    /* a tool turn: the original's response object holds `reasoning`; our extra `response` does not
     * hold it again; the reply comes back byte for byte, `reasoning` where it was */
    json_t *args = parse("{\"messages\":[{\"role\":\"user\",\"content\":\"go\"}],\"tools\":[{\"name\":\"f\",\"parameters\":{}}]}");
    json_t *reply = parse("{\"content\":\"\",\"toolCalls\":[{\"id\":\"t1\",\"name\":\"f\",\"input\":{}}],\"stopReason\":\"tool_calls\","
                          "\"usage\":{\"inputTokens\":1,\"outputTokens\":2},\"model\":\"deepseek-reasoner\",\"id\":\"r1\","
                          "\"reasoning\":\"call f first\",\"provider\":\"openai-compatible\"}");
    json_t *rec;
    json_t *seen = round_trip(&prompt_record_form, "prompt", args, reply, &rec);
    CHECK(seen != NULL);
    char *a = dump(seen), *b = dump(reply);
    CHECK_STR(a, b);
    free(a), free(b);
    CHECK_STR(json_string_value(json_object_get(json_object_get(rec, "result"), "reasoning")), "call f first");
    CHECK(json_object_get(json_object_get(rec, "response"), "reasoning") == NULL);
    char *line = dump(rec);
    CHECK(strstr(line, "call f first") && strstr(strstr(line, "call f first") + 1, "call f first") == NULL); /* once */
    free(line);
    json_free(seen), json_free(rec), json_free(reply), json_free(args);
    /* a plain prompt: the result is the text, the reasoning in `response`, back in its place */
    args = parse("{\"messages\":[{\"role\":\"user\",\"content\":\"q\"}]}");
    reply = parse("{\"content\":\"42\",\"toolCalls\":[],\"stopReason\":\"stop\",\"usage\":{\"inputTokens\":1,\"outputTokens\":2},"
                  "\"model\":\"m\",\"reasoning\":\"so\",\"provider\":\"openai\"}");
    seen = round_trip(&prompt_record_form, "prompt", args, reply, &rec);
    a = dump(seen), b = dump(reply);
    CHECK_STR(a, b);
    free(a), free(b);
    json_free(seen), json_free(rec), json_free(reply), json_free(args);
    /* the original's tool-turn record with its reasoning: the reply has it, before provider */
    json_t *orig = parse("{\"seq\":1,\"function\":\"prompt\",\"args\":{\"text\":\"go\",\"model\":\"deepseek-reasoner\",\"type\":null,"
                         "\"tools\":[\"f\"],\"turn\":0,\"max_tokens\":4096,\"temperature\":null},\"result\":{\"content\":\"\","
                         "\"blocks\":[],\"toolCalls\":[],\"stopReason\":\"stop\",\"inputTokens\":1,\"outputTokens\":1,"
                         "\"cacheCreationTokens\":0,\"cacheReadTokens\":0,\"reasoning\":\"hmm\"},\"duration_ms\":1,"
                         "\"timestamp\":\"2026-07-08T03:57:42.291916Z\"}");
    call_record r;
    CHECK(call_record_parse(orig, &r) == NULL);
    json_t *got = prompt_record_form.decode(&r);
    char *g = dump(got);
    CHECK(strstr(g, "\"reasoning\":\"hmm\",\"provider\":null") != NULL);
    free(g);
    json_free(got), json_free(orig);
    call_record_clear(&r);
}

/* A record the original wrote: matched on its own keys (request_digest skipped, numbers by value),
 * answered with its text as the reply's content. */
TEST(prompt_record_of_the_original_matches_and_answers)
{
    json_t *line = parse("{\"seq\":1,\"function\":\"prompt\",\"args\":{\"text\":\"hello\",\"model\":\"claude-sonnet-4-6\","
                         "\"type\":null,\"max_tokens\":4096.0,\"temperature\":0.7,\"request_digest\":\"ab\"},"
                         "\"result\":\"hi\",\"duration_ms\":3,\"token_usage\":{\"input_tokens\":4,\"output_tokens\":1},"
                         "\"timestamp\":\"2026-07-08T03:57:42.291916Z\"}");
    call_record r;
    CHECK(call_record_parse(line, &r) == NULL && !r.legacy);
    json_t *same = parse("{\"messages\":[{\"role\":\"user\",\"content\":\"hello\"}],\"temperature\":0.7}");
    json_t *other = parse("{\"messages\":[{\"role\":\"user\",\"content\":\"bye\"}]}");
    json_t *hotter = parse("{\"messages\":[{\"role\":\"user\",\"content\":\"hello\"}],\"temperature\":1}");
    CHECK(prompt_record_form.matches(&r, same));
    CHECK(!prompt_record_form.matches(&r, other));
    CHECK(!prompt_record_form.matches(&r, hotter));
    json_t *seen = prompt_record_form.decode(&r);
    CHECK_STR(json_string_value(json_object_get(seen, "content")), "hi");
    CHECK(json_number_value(json_object_get(json_object_get(seen, "usage"), "inputTokens")) == 4);
    CHECK_STR(json_string_value(json_object_get(seen, "model")), "claude-sonnet-4-6");
    json_free(seen), json_free(same), json_free(other), json_free(hotter), json_free(line);
    call_record_clear(&r);
}

TEST(tool_record_is_name_and_kwargs_and_gives_the_mcp_result_back)
{
    json_t *args = parse("{\"name\":\"srv__echo\",\"args\":{\"x\":1}}");
    json_t *one = parse("{\"content\":[{\"type\":\"text\",\"text\":\"echo 1\"}],\"isError\":false}");
    json_t *two = parse("{\"content\":[{\"type\":\"text\",\"text\":\"a\"},{\"type\":\"text\",\"text\":\"b\"}],\"isError\":true,"
                        "\"structuredContent\":{\"k\":2}}");
    json_t *rec;
    json_t *seen = round_trip(&tool_record_form, "tool", args, one, &rec);
    char *a = seen ? dump(seen) : NULL, *b = dump(one);
    CHECK_STR(a, b);
    free(a), free(b);
    CHECK_STR(json_string_value(json_object_get(rec, "result")), "echo 1"); /* one text block: its text */
    const json_t *ra = json_object_get(rec, "args");
    CHECK_STR(json_string_value(json_object_get(ra, "name")), "srv__echo");
    CHECK(json_number_value(json_object_get(json_object_get(ra, "kwargs"), "x")) == 1 && !json_object_get(ra, "args"));
    json_free(seen), json_free(rec);
    seen = round_trip(&tool_record_form, "tool", args, two, &rec);
    a = seen ? dump(seen) : NULL, b = dump(two);
    CHECK_STR(a, b);
    free(a), free(b);
    CHECK(json_is_array(json_object_get(rec, "result"))); /* several blocks: the content array */
    json_free(seen), json_free(rec), json_free(one), json_free(two), json_free(args);
}

TEST(rfc3339_both_ways)
{
    char out[RFC3339_MAX];
    rfc3339_format_ms(0, out);
    CHECK_STR(out, "1970-01-01T00:00:00.000Z");
    rfc3339_format_ms(1783483062291LL, out);
    CHECK_STR(out, "2026-07-08T03:57:42.291Z");
    int64_t ms = 0;
    CHECK(rfc3339_parse_ms("2026-07-08T03:57:42.291916Z", 27, &ms) && ms == 1783483062291LL);
    CHECK(rfc3339_parse_ms("2026-07-08T03:57:42Z", 20, &ms) && ms == 1783483062000LL);
    CHECK(rfc3339_parse_ms("2026-07-08T05:57:42.5+02:00", 27, &ms) && ms == 1783483062500LL);
    CHECK(rfc3339_parse_ms("2000-02-29T00:00:00Z", 20, &ms) && ms == 951782400000LL);
    const char *bad[] = {"2026-07-08", "2026-13-08T00:00:00Z", "2026-07-08T03:57:42", "2026-07-08T03:57:42.Z",
                         "2026-07-08T03:57:42.1234567890Z", "2026-07-08T03:57:42Zx", "x026-07-08T03:57:42Z",
                         "2026-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2026-04-31T00:00:00Z"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) CHECK(!rfc3339_parse_ms(bad[i], strlen(bad[i]), &ms));
}

/* Both directions keep the last second per thread (records come many to a second): a time in
 * the same second, another second, a bad suffix behind a known second, and a prefix that was
 * refused all give what a first call gives, checked against gmtime_r. */
TEST(rfc3339_same_second_reuse_gives_what_a_first_call_gives)
{
    char out[RFC3339_MAX], want[RFC3339_MAX + 16];
    int64_t seq[] = {1783483062291LL, 1783483062292LL, 1783483062999LL, 1783483063000LL, 1783483062000LL,
                     0, 999, 1000, 951782399999LL, 951782400000LL, 1783483062291LL, 253402300799999LL,
                     253402300799000LL, 1783483062291LL};
    for (size_t i = 0; i < sizeof seq / sizeof *seq; i++) {
        for (int again = 0; again < 2; again++) {
            rfc3339_format_ms(seq[i], out);
            time_t t = (time_t)(seq[i] / 1000);
            struct tm tm;
            CHECK(gmtime_r(&t, &tm) != NULL);
            snprintf(want, sizeof want, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1,
                     tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, (int)(seq[i] % 1000));
            CHECK_STR(out, want);
            int64_t back = -1;
            CHECK(rfc3339_parse_ms(out, strlen(out), &back) && back == seq[i]);
        }
    }
    int64_t ms = 0;
    const char *after_known[] = {"2026-07-08T03:57:42.", "2026-07-08T03:57:42x", "2026-07-08T03:57:42.1234567890Z",
                                 "2026-07-08T03:57:42.5+2:00", "2026-07-08T03:57:42.5+24:00", "2026-07-08T03:57:42Zx"};
    for (size_t i = 0; i < sizeof after_known / sizeof *after_known; i++) {
        CHECK(rfc3339_parse_ms("2026-07-08T03:57:42.291Z", 24, &ms) && ms == 1783483062291LL);
        CHECK(!rfc3339_parse_ms(after_known[i], strlen(after_known[i]), &ms));
    }
    CHECK(rfc3339_parse_ms("2026-07-08T03:57:42.291Z", 24, &ms));
    CHECK(rfc3339_parse_ms("2026-07-08T03:57:42.5+02:00", 27, &ms) && ms == 1783483062500LL - 7200000LL);
    CHECK(rfc3339_parse_ms("2026-07-08T03:57:42Z", 20, &ms) && ms == 1783483062000LL);
    /* a refused prefix is not remembered as read */
    CHECK(!rfc3339_parse_ms("2026-02-29T00:00:00.000Z", 24, &ms));
    CHECK(!rfc3339_parse_ms("2026-02-29T00:00:00.000Z", 24, &ms));
    CHECK(rfc3339_parse_ms("2024-02-29T00:00:00.001Z", 24, &ms) && ms == 1709164800001LL);
    CHECK(rfc3339_parse_ms("2024-02-29T00:00:00.002Z", 24, &ms) && ms == 1709164800002LL);
}

/* The original's rule for args (section 1 of its replay): keys on both sides equal, numbers by
 * value, a key on one side only ignored, request_digest never compared. */
TEST(record_args_agree_follows_the_originals_rule)
{
    json_t *theirs = parse("{\"message\":\"done\",\"n\":4096.0,\"request_digest\":\"aa\"}");
    json_t *ours = parse("{\"message\":\"done\",\"fields\":{\"x\":1},\"n\":4096,\"request_digest\":\"bb\"}");
    json_t *other = parse("{\"message\":\"not done\"}");
    json_t *nulls = parse("{\"message\":null}");
    CHECK(record_args_agree(theirs, ours, false));
    CHECK(!record_args_agree(theirs, other, false));
    CHECK(!record_args_agree(theirs, nulls, false)); /* null is a value unless it stands for "unknown" */
    CHECK(record_args_agree(theirs, nulls, true));
    json_free(theirs), json_free(ours), json_free(other), json_free(nulls);
}
