/* orig_run.h — a run folder written by the original chidori (crate 3.8), for `chidori replay`:
 * <runs dir>/<run id>/{checkpoint.json, input.json, output.json, …}, as its
 * `checkpoint export` archive unpacks. checkpoint.json is the call log (a JSON array of records in
 * the original's shape, read by the call log's one parser), input.json the input, output.json the
 * output of a completed run. Only the replay reads it: a replay writes nothing, so the folder is
 * never turned into ours. Trusts nothing in the files (parsed with limits, checked).
 */
#ifndef CHIDORI_ORIG_RUN_H
#define CHIDORI_ORIG_RUN_H

#include <stdbool.h>
#include "cli/runstore.h"

/* The folder has the original's checkpoint.json and none of our run.json. */
bool orig_run_is(const char *dir);
/* Its run's meta (run_id: the folder's name; agent: key, the one the command names, since the
 * original's entry path is relative to a folder we do not know; seed and clock: 0, the original
 * records Date and Math.random calls as it needs them) and its records (*records, an array, the
 * caller frees). 0, or -1 with *error. */
int orig_run_read(const char *dir, const char *run_id, const char *key, run_meta *m, json_t **records, char **error);

#endif
