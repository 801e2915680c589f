/* test_branch_doc.c — the branch store's documents read from bytes (src/cli/branch_doc.c). A
 * branch.json's clock_start_ms outside the range a run record accepts (0..8.64e15 ms) is taken as
 * absent (0): before, a value such as 1e300 or -9.5e18 was converted to int64_t as it was, which
 * is undefined behaviour (found by tests/fuzz/fuzz_branch_store.c). */
#define _GNU_SOURCE
#include "unit.h"
#include "cli/branch_doc.h"
#include "util/buf.h"

#include <stdlib.h>
#include <string.h>

static int plan_with_clock(const char *clock, branch_plan *p)
{
    char *text = xasprintf("{\"branch_seq\":1,\"sequence_range\":{\"start\":2,\"end_exclusive\":9},"
                           "\"original_source\":\"a.js\",\"status\":\"completed\",\"input\":{},"
                           "\"seed\":\"7\",\"clock_start_ms\":%s}", clock);
    char *error = NULL;
    json_t *b = branch_doc_parse(text, strlen(text), "branch.json", &error);
    json_t *anchor = branch_doc_parse("{\"project_root\":\"/p\"}", 21, "anchor.json", &error);
    int rc = b && anchor ? branch_plan_read(b, anchor, false, "id", "d", p, &error) : -1;
    json_free(b);
    json_free(anchor);
    free(error);
    free(text);
    return rc;
}

TEST(branch_doc_clock_start_out_of_range_is_absent)
{
    branch_plan p;
    CHECK(plan_with_clock("1764583200000", &p) == 0);
    CHECK(p.clock_start_ms == 1764583200000LL && p.seed == 7 && p.lo == 2 && p.hi == 9);
    const char *bad[] = {"1e300", "-9.5e18", "9.3e18", "-1", "8.64e16"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        p.clock_start_ms = 5;
        CHECK(plan_with_clock(bad[i], &p) == 0);
        CHECK(p.clock_start_ms == 0);
    }
}

TEST(branch_doc_refuses_garbage_with_the_documents_name)
{
    char *error = NULL;
    CHECK(branch_doc_parse("{not json", 9, "x/branch.json", &error) == NULL);
    CHECK(error && strstr(error, "x/branch.json is not valid JSON"));
    free(error);
}

/* `chidori branches` printed a row with a missing field as a NULL value, and the printer then
 * read through it (found by the fuzz target): a missing field is null. */
TEST(branch_doc_row_of_a_sparse_branch_has_every_field)
{
    json_t *b = json_parse("{\"label\":\"x\"}", 13, NULL, NULL);
    CHECK(b);
    json_t *row = branch_doc_row(b);
    CHECK(json_is_object(row) && row->u.object.len == 8);
    for (size_t i = 0; i < row->u.object.len; i++) CHECK(row->u.object.items[i].value != NULL);
    CHECK_STR(json_string_value(json_object_get(row, "label")), "x");
    CHECK(json_object_get(row, "branchId")->type == JSON_NULL);
    json_free(row);
    json_free(b);
}

/* A pending input without args made an answer record whose args was a NULL value, which the
 * record loader then read through (found by the fuzz target): the pending call is malformed. */
TEST(branch_doc_pending_input_needs_args)
{
    const char *text = "{\"branch_seq\":1,\"sequence_range\":{\"start\":2,\"end_exclusive\":9},"
                       "\"original_source\":\"a.js\",\"status\":\"paused\",\"input\":{},"
                       "\"pending\":{\"seq\":3,\"parent_seq\":2,\"function\":\"input\"}}";
    json_t *b = json_parse(text, strlen(text), NULL, NULL);
    json_t *anchor = json_parse("{\"project_root\":\"/p\"}", 21, NULL, NULL);
    CHECK(b && anchor);
    branch_plan p;
    char *error = NULL;
    CHECK(branch_plan_read(b, anchor, true, "id", "d", &p, &error) == -1);
    CHECK(error && strstr(error, "d/branch.json: its pending call is malformed"));
    free(error);
    json_free(b);
    json_free(anchor);
}
