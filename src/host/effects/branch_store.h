/* branch_store.h — the branch store: what chidori.branch leaves in the run's folder so a branch can
 * be looked at, resumed or run again on its own (`chidori branches`, `branch-resume`,
 * `branch-rerun`; docs/cli.md).
 *
 * <run dir>/branches/op-<S, 20 digits>/
 *   anchor.json            {version: 1, parent_run_id, branch_seq, vfs, created_at, project_root}
 *   branch-<k, 3 digits>/source.ts     a copy of the variant's source as it was when the call ran
 *   branch-<k>/checkpoint.json         the branch's records (a pretty array)
 *   branch-<k>/branch.json             {version, branch_id, label, branch_index, branch_seq,
 *       parent_run_id, original_source, input, sequence_range: {start, end_exclusive}, status,
 *       pending_input, pending_prompt, output, error, updated_at} (+ pending, our own: the call
 *       the branch paused on, {seq, parent_seq, function, args, open_calls})
 * The layout and keys are the original's; `vfs` is our seed document (docs/vfs.md), not the
 * original's node table, and project_root is ours. The call log stays the truth: a store that
 * cannot be written is said on the run's log stream and the run goes on.
 */
#ifndef CHIDORI_BRANCH_STORE_H
#define CHIDORI_BRANCH_STORE_H

#include <stdint.h>
#include <stdio.h>
#include "host/member.h"
#include "util/json.h"

typedef struct branch_store branch_store;

/* Make the call's folder, its anchor.json and each variant's source.ts (args: the normalized
 * branch args; sources read beneath root_fd). NULL when it cannot (said on log_out). */
branch_store *branch_store_open(const char *run_dir, const char *run_id, const char *project_root, uint64_t seq,
                                const json_t *vfs, const json_t *args, int root_fd, FILE *log_out);
/* Write branch k's checkpoint.json and branch.json from its outcome (o may be NULL: it did not
 * start; outcome is its recorded outcome object). */
void branch_store_settle(branch_store *s, size_t k, const char *branch_id, const json_t *variant, uint64_t lo,
                         uint64_t hi, const host_member_outcome *o, const json_t *outcome);
void branch_store_close(branch_store *s);

/* The folder of the branch call at seq under run_dir (malloc'd). */
char *branch_store_call_dir(const char *run_dir, uint64_t seq);
/* branch.json's status fields from an outcome object ({status, output?, error?, pendingPrompt?})
 * set into b, with updated_at now. */
void branch_store_set_status(json_t *b, const json_t *outcome, const json_t *pending);
/* Write v as pretty JSON to path, atomically. 0, or -1 with *error. */
int branch_store_write_json(const char *path, const json_t *v, char **error);

#endif
