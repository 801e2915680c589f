/* fuzz_branch_store.c — the branch store's documents (cli/branch_doc.h) read from any bytes. The
 * input is branch.json, anchor.json and checkpoint.json joined by NUL bytes (missing ones are
 * empty). Properties: no crash, hang, leak or undefined behaviour; a document parses or is refused
 * with an error that names it; `branches` makes a row of any branch.json with a value (null when
 * missing) for each field, and prints it; a plan that reads has branch_seq < start < end_exclusive,
 * its project root, source and input, at most 16 open calls none before the range, and (resume) a
 * pending seq inside the range; whatever resume accepts, rerun accepts too; a resumed checkpoint
 * ends with the answer's record, whose args is an object; the records print, and go through the
 * one record loader (host/calllog.h) without crashing. */
#define _GNU_SOURCE
#include "cli/branch_doc.h"
#include "host/calllog.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static json_t *doc(const uint8_t **data, size_t *size, const char *path)
{
    const uint8_t *end = memchr(*data, 0, *size);
    size_t n = end ? (size_t)(end - *data) : *size;
    char *error = NULL;
    json_t *v = branch_doc_parse((const char *)*data, n, path, &error);
    if (!v && (!error || !strstr(error, path))) abort();
    if (v && error) abort();
    free(error);
    *data += end ? n + 1 : n;
    *size -= end ? n + 1 : n;
    return v;
}

static void check_plan(const branch_plan *p, bool resume)
{
    if (!(p->seq < p->lo && p->lo < p->hi) || !p->root || !p->source || !p->input) abort();
    if (p->n_queued > BRANCH_DOC_MAX_OPEN) abort();
    for (size_t i = 0; i < p->n_queued; i++)
        if (p->queued[i] < p->lo) abort();
    if (resume && (p->pending_seq < p->lo || p->pending_seq >= p->hi)) abort();
    if (p->vfs && !json_is_object(p->vfs)) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    json_t *b = doc(&data, &size, "op-1/branch-000/branch.json");
    json_t *anchor = doc(&data, &size, "op-1/anchor.json");
    json_t *records = doc(&data, &size, "op-1/branch-000/checkpoint.json");
    if (b) {
        json_t *row = branch_doc_row(b);
        if (!json_is_object(row)) abort();
        for (size_t i = 0; i < row->u.object.len; i++)
            if (!row->u.object.items[i].value) abort();
        size_t n;
        free(json_dump(row, JSON_PRETTY, &n)); /* as `branches` prints it */
        json_free(row);
    }
    branch_plan resume, rerun;
    char *error = NULL;
    int rc = branch_plan_read(b, anchor, true, "b-0", "op-1/branch-000", &resume, &error);
    if (rc < 0 ? !error || !strstr(error, "branch") : error != NULL) abort();
    free(error), error = NULL;
    int rc2 = branch_plan_read(b, anchor, false, "b-0", "op-1/branch-000", &rerun, &error);
    if (rc2 < 0 ? !error || !strstr(error, "branch.json") : error != NULL) abort();
    free(error), error = NULL;
    if (rc == 0 && rc2 != 0) abort();
    if (rc2 == 0) check_plan(&rerun, false);
    if (rc == 0) {
        check_plan(&resume, true);
        if (records) {
            size_t before = json_is_array(records) ? records->u.array.len : 0;
            if (branch_plan_answer(&resume, records, "fuzz", "op-1/branch-000", &error) == 0) {
                if (records->u.array.len != before + 1) abort();
                const json_t *ans = records->u.array.items[before];
                if (strcmp(json_string_value(json_object_get(ans, "result")) ?: "", "fuzz")) abort();
                if (!json_is_object(json_object_get(ans, "args"))) abort();
                size_t n;
                free(json_dump(records, JSON_PRETTY, &n)); /* as checkpoint.json is written */
                calllog *log = calllog_new();
                if (calllog_load_records(log, records, "checkpoint.json", &error) < 0 && !error) abort();
                calllog_free(log);
            } else if (!error || !strstr(error, "checkpoint.json")) {
                abort();
            }
            free(error), error = NULL;
        }
    }
    json_free(b);
    json_free(anchor);
    json_free(records);
    return 0;
}
