/* calllog.h — the durable call log of one run: one record per recorded effect.
 *
 * A record is {seq, parent_seq?, function, args, result, duration_ms, timestamp, error?}.
 * Today the log lives in memory for the run; persistence to records.jsonl, replay lookup and
 * divergence checks plug in here without touching the engine or the effects.
 */
#ifndef CHIDORI_CALLLOG_H
#define CHIDORI_CALLLOG_H

#include <stdint.h>
#include <stddef.h>
#include "util/json.h"

typedef struct call_record {
    uint64_t seq;
    char *function;
    json_t *args;
    json_t *result; /* NULL when the call failed */
    char *error;    /* NULL when the call succeeded */
    double duration_ms;
    int64_t timestamp_ms;
} call_record;

typedef struct calllog calllog;

calllog *calllog_new(void);
void calllog_free(calllog *log);
size_t calllog_count(const calllog *log);
const call_record *calllog_get(const calllog *log, size_t index);

/* Replay lookup: the recorded outcome of the next call, or NULL to perform it live. */
const call_record *calllog_replay_next(calllog *log, const char *function, const json_t *args, char **divergence);

/* Append a performed call (copies args/result/error). */
void calllog_append(calllog *log, const char *function, const json_t *args, const json_t *result,
                    const char *error, double duration_ms, int64_t timestamp_ms);

/* The record as JSON (caller frees). */
json_t *call_record_to_json(const call_record *r);

#endif
