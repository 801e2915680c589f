/* runstore.h — a CLI run's folder: <runs dir>/<run id>/{run.json, records.jsonl}.
 *
 * run.json holds what a replay needs besides the call log: the agent, the input, the captured
 * seed and clock start, the captured surface's settings and the VFS seed's hash, the call log's caps
 * (so a replay stops where the run did), and the outcome (output, error, or the pending call of a
 * paused run).
 * It is replaced atomically; it is parsed with limits and checked, since a run folder is just
 * files on disk that anything could have edited. run.lock is the folder's lock (run_lock).
 */
#ifndef CHIDORI_RUNSTORE_H
#define CHIDORI_RUNSTORE_H

#include <stdbool.h>
#include <stdint.h>
#include "util/json.h"

typedef struct run_meta {
    char run_id[37];
    char *agent;     /* entry key relative to the agent's folder */
    json_t *input;   /* object */
    uint64_t seed;
    int64_t clock_start_ms;
    int64_t created_at_ms;
    int64_t ended_at_ms; /* when run or resume last ended it (completed, failed, paused); 0: not yet */
    char *status;    /* running | completed | failed | paused */
    json_t *output;  /* completed */
    char *error;     /* failed */
    json_t *pending; /* paused: {seq, parent_seq?, function, args, open_calls}; running: kept by a
                        resume in progress, with response */
    char *response;  /* running: the answer a resume in progress gives the pending call */
    json_t *surface; /* {"fs": "vfs"|"none", ...}: the captured surface's settings (runner/surface.h) */
    json_t *vfs;     /* {"max_bytes": N, "seed_sha256"?: hex}: the VFS's cap and seed */
    uint64_t log_max_records, log_max_bytes; /* the call log's caps the run ran under; 0: not recorded */
} run_meta;

/* <runs_dir>/<run_id>, created (with parents) when create is set. Caller frees. */
char *run_dir_path(const char *runs_dir, const char *run_id);
int run_dir_create(const char *dir, char **error);
/* Replace run.json atomically. With durable set the file is fsynced before the rename; without,
 * it is left to the call log to make it durable before its first record (see
 * calllog_persist_to), so a run with no effects pays for no disk flush. */
int run_meta_write(const char *dir, const run_meta *m, bool durable, char **error);
int run_meta_read(const char *dir, run_meta *m, char **error);

/* The run folder's lock: an exclusive flock on <dir>/run.lock (a file that is never replaced,
 * unlike run.json), taken without waiting and held by `run` and `resume` until the process ends
 * (the kernel releases it when the process dies, however it dies). The holder's pid is written in
 * the file, for the error of the one refused. The descriptor, or -1 with *error (held elsewhere:
 * naming the pid). */
int run_lock(const char *dir, const char *run_id, char **error);
void run_meta_clear(run_meta *m);

#endif
