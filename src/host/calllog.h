/* calllog.h — the durable call log of one run and the replay cursor over it.
 *
 * A record is {seq, parent_seq?, function, args, result, duration_ms, timestamp, error?}, one JSON
 * object per line in records.jsonl. Records of a nested agent carry the seq of the call_agent
 * call that started it as parent_seq; each parent has its own replay cursor, so a completed
 * nested run replays as one unit (its call_agent record answers) and an unfinished one replays
 * its own records.
 *
 * Trusts nothing in a loaded file: every line is parsed with limits and checked for shape; a
 * truncated last line (a crash mid-append) is dropped, anything else malformed is an error.
 */
#ifndef CHIDORI_CALLLOG_H
#define CHIDORI_CALLLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "util/json.h"

typedef struct call_record {
    uint64_t seq;
    uint64_t parent_seq; /* 0 = a call of the top-level agent */
    char *function;
    json_t *args;
    json_t *result; /* NULL when the call failed */
    char *error;    /* NULL when the call succeeded */
    double duration_ms;
    int64_t timestamp_ms;
    bool consumed; /* replay has answered it */
} call_record;

typedef enum calllog_mode {
    LOG_LIVE,              /* record only */
    LOG_REPLAY_THEN_LIVE,  /* recorded calls answer from the log; calls past its end run live */
    LOG_REPLAY_ONLY,       /* zero live effects: a call the log does not have is an error */
} calllog_mode;

typedef struct calllog calllog;

calllog *calllog_new(void);
void calllog_free(calllog *log);
void calllog_set_mode(calllog *log, calllog_mode mode);

/* Load records.jsonl for replay. 0, or -1 with *error. */
int calllog_load(calllog *log, const char *path, char **error);
/* Load records given as JSON objects (an array; from a database rather than a file), checked as
 * strictly as the lines of a file. source names them in errors. 0, or -1 with *error. */
int calllog_load_records(calllog *log, const json_t *records, const char *source, char **error);
/* Append every new record to path (created if missing), flushed to disk as it is written.
 * companion (may be NULL) is a file the log depends on (the run's run.json): it is flushed to
 * disk, with its folder, before the first record, so no record is ever durable without it. */
int calllog_persist_to(calllog *log, const char *path, const char *companion, char **error);

/* A sink is told of every record appended (after it is in the file, if there is one), as the
 * record's JSON (owned by the log; copy what you keep). It returns 0, or -1 with *error when it
 * could not keep the record: the append then fails, and with it the run. Loaded records are not
 * passed to it. */
typedef int calllog_sink_fn(void *ctx, const json_t *record, char **error);
void calllog_set_sink(calllog *log, calllog_sink_fn *fn, void *ctx);

size_t calllog_count(const calllog *log);
const call_record *calllog_get(const calllog *log, size_t index);

typedef enum lookup_outcome { LOOKUP_LIVE, LOOKUP_REPLAYED, LOOKUP_FAILED } lookup_outcome;

/* Replay lookup for one call made under parent_seq. LOOKUP_REPLAYED: *rec is the recorded call
 * (now consumed). LOOKUP_LIVE: perform it; *seq is the seq reserved for its record.
 * LOOKUP_FAILED: *error says why (divergence, or a live call in replay-only mode). */
lookup_outcome calllog_lookup(calllog *log, uint64_t parent_seq, const char *function, const json_t *args,
                              const call_record **rec, uint64_t *seq, char **error);

/* The next unconsumed record under parent_seq, or NULL (for chidori.step's cache check). */
call_record *calllog_peek(calllog *log, uint64_t parent_seq);

/* Reserve the seq of a live call. Seqs queued with calllog_queue_seqs are handed out first:
 * a resumed run gives the calls that were in progress when it paused (nested agents) the seqs
 * their recorded children already point to. */
uint64_t calllog_reserve_seq(calllog *log);
void calllog_queue_seqs(calllog *log, const uint64_t *seqs, size_t n);

/* Append a performed call (copies args/result/error) and persist it. 0, or -1 with *error when
 * it cannot be written (the run must then fail: an unrecorded effect cannot be replayed). */
int calllog_append(calllog *log, uint64_t seq, uint64_t parent_seq, const char *function, const json_t *args,
                   const json_t *result, const char *error, double duration_ms, int64_t timestamp_ms,
                   char **io_error);

/* The record as JSON (caller frees). */
json_t *call_record_to_json(const call_record *r);

#endif
