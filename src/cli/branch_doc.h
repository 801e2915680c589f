/* branch_doc.h — the branch store's documents (branch.json, anchor.json, checkpoint.json; layout in
 * host/effects/branch_store.h) read from bytes: parsed with a size limit and checked into what
 * `chidori branches`, `branch-resume` and `branch-rerun` (cli/branch_cmd.c) need. No files here,
 * so tests/fuzz/fuzz_branch_store.c drives it from any bytes.
 *
 * Trusts nothing in the documents: anyone could edit them. Pointers in a branch_plan borrow from
 * the documents it was read from.
 */
#ifndef CHIDORI_BRANCH_DOC_H
#define CHIDORI_BRANCH_DOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "util/json.h"

#define BRANCH_DOC_MAX_BYTES ((size_t)256 << 20) /* one document of the store */
#define BRANCH_DOC_MAX_OPEN 16                   /* calls open beside the pending input */

/* Parse one document's bytes (path names it in errors). NULL with *error when it is larger than
 * BRANCH_DOC_MAX_BYTES or not JSON. */
json_t *branch_doc_parse(const char *text, size_t n, const char *path, char **error);

/* A seq as the store writes it: a whole number 1..2^53-1. */
bool branch_doc_seq(const json_t *v, uint64_t *out);

/* The row `chidori branches` prints for a branch.json (any JSON value); a missing field is null. */
json_t *branch_doc_row(const json_t *b);

typedef struct branch_plan {
    uint64_t seq, lo, hi;        /* branch_seq and sequence_range: seq < lo < hi */
    const char *root, *source;   /* the anchor's project_root, the branch's original_source */
    const json_t *input;         /* the branch's input (present) */
    const json_t *vfs;           /* the anchor's vfs when a non-empty object, else NULL */
    uint64_t seed;               /* the branch's seed (a decimal string), else 0 */
    int64_t clock_start_ms;      /* the branch's clock_start_ms when 0..8.64e15, else 0 */
    /* resume only: the pending input and the calls open beside it */
    uint64_t pending_seq, pending_parent;
    const json_t *pending_args;
    uint64_t queued[BRANCH_DOC_MAX_OPEN];
    size_t n_queued;
} branch_plan;

/* Check branch.json (b, in folder bdir) and its anchor.json into p; resume also checks the branch
 * is paused on an input whose args is an object (branch_id names it in errors). 0, or -1 with *error. */
int branch_plan_read(const json_t *b, const json_t *anchor, bool resume, const char *branch_id, const char *bdir,
                     branch_plan *p, char **error);
/* Check a resumed branch's checkpoint.json (records) and append the answer as the input's record.
 * 0, or -1 with *error. */
int branch_plan_answer(const branch_plan *p, json_t *records, const char *answer, const char *bdir, char **error);

#endif
