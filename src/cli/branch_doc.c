/* branch_doc.c — the branch store's documents read from bytes and checked (branch_doc.h). Owns the
 * checks `branch-resume` and `branch-rerun` make before they run anything; trusts none of the
 * bytes (the records themselves are checked later by the one record parser, host/calllog.c). */
#define _GNU_SOURCE
#include "cli/branch_doc.h"
#include "util/buf.h"
#include "util/clock.h"
#include "util/rfc3339.h"

#include <stdlib.h>
#include <string.h>

json_t *branch_doc_parse(const char *text, size_t n, const char *path, char **error)
{
    if (n > BRANCH_DOC_MAX_BYTES) {
        *error = xasprintf("%s is larger than %zu bytes: the branch store's documents are not that large; "
                           "remove or restore it", path, BRANCH_DOC_MAX_BYTES);
        return NULL;
    }
    json_error jerr;
    json_t *v = json_parse(text, n, NULL, &jerr);
    if (!v) *error = xasprintf("%s is not valid JSON (line %d: %s)", path, jerr.line, jerr.message);
    return v;
}

/* A field of b, or null when it is missing (a NULL value would be read through when printed). */
static json_t *field(const json_t *b, const char *key)
{
    const json_t *v = json_object_get(b, key);
    return v ? json_copy(v) : json_null();
}

json_t *branch_doc_row(const json_t *b)
{
    json_t *r = json_object();
    json_object_set(r, "branchId", field(b, "branch_id"));
    json_object_set(r, "label", field(b, "label"));
    json_object_set(r, "status", field(b, "status"));
    json_object_set(r, "branchSeq", field(b, "branch_seq"));
    json_object_set(r, "branchIndex", field(b, "branch_index"));
    json_object_set(r, "pendingPrompt", field(b, "pending_prompt"));
    json_object_set(r, "source", field(b, "original_source"));
    json_object_set(r, "updatedAt", field(b, "updated_at"));
    return r;
}

bool branch_doc_seq(const json_t *v, uint64_t *out)
{
    if (!v || v->type != JSON_NUMBER || !(v->u.number >= 1 && v->u.number <= 9007199254740991.0) ||
        v->u.number != (double)(uint64_t)v->u.number)
        return false;
    *out = (uint64_t)v->u.number;
    return true;
}

int branch_plan_read(const json_t *b, const json_t *anchor, bool resume, const char *branch_id, const char *bdir,
                     branch_plan *p, char **error)
{
    memset(p, 0, sizeof *p);
    const json_t *range = json_object_get(b, "sequence_range");
    const char *status = json_string_value(json_object_get(b, "status"));
    const json_t *pending = json_object_get(b, "pending");
    p->root = json_string_value(json_object_get(anchor, "project_root"));
    p->source = json_string_value(json_object_get(b, "original_source"));
    p->input = json_object_get(b, "input");
    if (!branch_doc_seq(json_object_get(b, "branch_seq"), &p->seq) || !branch_doc_seq(json_object_get(range, "start"), &p->lo) ||
        !branch_doc_seq(json_object_get(range, "end_exclusive"), &p->hi) || p->lo <= p->seq || p->hi <= p->lo || !p->root ||
        !p->source || !status || !p->input) {
        *error = xasprintf("%s/branch.json or its anchor.json is malformed (a branch_seq, sequence_range, "
                           "original_source, input and the anchor's project_root are needed)", bdir);
        return -1;
    }
    if (resume) {
        const json_t *open = json_object_get(pending, "open_calls");
        if (strcmp(status, "paused") || !json_is_object(pending) ||
            strcmp(json_string_value(json_object_get(pending, "function")) ?: "", "input")) {
            *error = xasprintf("branch %s is %s, not paused on an input: only an input is answered "
                               "(branch-rerun runs it again from its start)", branch_id, status);
            return -1;
        }
        if (!branch_doc_seq(json_object_get(pending, "seq"), &p->pending_seq) ||
            !branch_doc_seq(json_object_get(pending, "parent_seq"), &p->pending_parent) || p->pending_seq < p->lo ||
            p->pending_seq >= p->hi || !json_is_object(json_object_get(pending, "args")) ||
            (open && (!json_is_array(open) || open->u.array.len > BRANCH_DOC_MAX_OPEN))) {
            *error = xasprintf("%s/branch.json: its pending call is malformed", bdir);
            return -1;
        }
        for (size_t i = 0; open && i < open->u.array.len; i++)
            if (!branch_doc_seq(open->u.array.items[i], &p->queued[p->n_queued++]) || p->queued[p->n_queued - 1] < p->lo) {
                *error = xasprintf("%s/branch.json: its pending call is malformed", bdir);
                return -1;
            }
        p->pending_args = json_object_get(pending, "args");
    }
    const json_t *vfs = json_object_get(anchor, "vfs");
    p->vfs = json_is_object(vfs) && vfs->u.object.len ? vfs : NULL;
    const char *seed_text = json_string_value(json_object_get(b, "seed"));
    if (seed_text) p->seed = strtoull(seed_text, NULL, 10);
    const json_t *clock = json_object_get(b, "clock_start_ms");
    /* the range a run record accepts (cli/runstore.c); anything else is taken as absent (converting
     * a double outside int64_t's range is undefined) */
    if (clock && clock->type == JSON_NUMBER && clock->u.number >= 0 && clock->u.number <= 8.64e15)
        p->clock_start_ms = (int64_t)clock->u.number;
    return 0;
}

int branch_plan_answer(const branch_plan *p, json_t *records, const char *answer, const char *bdir, char **error)
{
    if (!json_is_array(records)) {
        *error = xasprintf("%s/checkpoint.json must be an array of records", bdir);
        return -1;
    }
    /* the answer, as the input's record (the original's synthetic record) */
    json_t *ans = json_object();
    json_object_set(ans, "seq", json_number((double)p->pending_seq));
    json_object_set(ans, "parent_seq", json_number((double)p->pending_parent));
    json_object_set(ans, "function", json_string("input"));
    json_object_set(ans, "args", json_copy(p->pending_args));
    json_object_set(ans, "result", json_string(answer));
    json_object_set(ans, "duration_ms", json_number(0));
    char when[RFC3339_MAX];
    rfc3339_format_ms(clock_realtime_ms(), when);
    json_object_set(ans, "timestamp", json_string(when));
    json_object_set(ans, "duration_us", json_number(0));
    json_array_push(records, ans);
    return 0;
}
