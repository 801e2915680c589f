/* calllog.h — the durable call log of one run and the replay cursor over it.
 *
 * A record is {seq, parent_seq?, function, args, result, duration_ms, token_usage?, timestamp,
 * error?} as the original chidori writes it (timestamp an RFC 3339 UTC string, duration_ms whole
 * milliseconds), then our own keys (duration_us, and what an op's record form keeps beyond the
 * original's: see record_form.h), one JSON object per line in records.jsonl. Loading also accepts
 * our previous shape (timestamp in milliseconds, fractional duration_ms, args and result as the op
 * performed them): such a record is `legacy`. A seq twice is damage when both records are ours, and
 * otherwise the first record of it wins (the original's rule). Records of a nested agent carry the seq of the call_agent
 * call that started it as parent_seq; each parent has its own replay cursor, so a completed
 * nested run replays as one unit (its call_agent record answers) and an unfinished one replays
 * its own records.
 *
 * Trusts nothing in a loaded file: every line is parsed with limits and checked for shape; a
 * truncated last line (a crash mid-append) is dropped, anything else malformed is an error. Before
 * the first append to a file, a torn last line is cut off (and the cut flushed), so a new record
 * never follows a fragment.
 *
 * Bounded: a run's log holds at most caps.max_records records and about caps.max_bytes bytes
 * (CHIDORI_LOG_MAX_RECORDS, CHIDORI_LOG_MAX_BYTES): once either is reached no further live call
 * starts, and the run fails with an error naming the setting (the same error at the same call on
 * replay). Only the records loaded for replay are held in memory; new records go to the file and
 * the sink and are not kept.
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
    /* its args: read them with call_record_args. A record loaded from a line holds them, when they are
     * plain (calllog.c's scan_plain), only as their text until something reads them; replay's
     * comparison (call_record_args_equal) reads the text alone when the agent's args are the same. */
    json_t *args_tree;
    char *args_text;    /* NULL, or their compact text as it stood in the line */
    size_t args_len;
    uint32_t args_at;   /* where that text started in its line (the parsed values' columns) */
    json_t *result; /* NULL when the call failed */
    char *error;    /* NULL when the call succeeded */
    double duration_ms;
    int64_t timestamp_ms;
    json_t *token_usage; /* {input_tokens, output_tokens, cache_*?} or NULL */
    json_t *extra;       /* the record's other top-level keys (an object), or NULL */
    bool legacy;         /* our previous shape: args and result as performed (see above) */
    bool ours;           /* written by chidori (legacy, or with duration_us), not by the original */
    bool consumed;       /* replay has answered it */
    bool function_shared; /* function is its log's copy (freed with the log, not with the record) */
    size_t order;        /* its place in what was loaded (the first of a seq wins) */
} call_record;

typedef enum calllog_mode {
    LOG_LIVE,              /* record only */
    LOG_REPLAY_THEN_LIVE,  /* recorded calls answer from the log; calls past its end run live */
    LOG_REPLAY_ONLY,       /* zero live effects: a call the log does not have is an error */
} calllog_mode;

typedef struct calllog calllog;

/* Caps on one run's log (a nested agent's records count in its root run's log). 0 = the default. */
#define CALLLOG_DEFAULT_MAX_RECORDS 100000u
#define CALLLOG_DEFAULT_MAX_BYTES ((uint64_t)256 << 20)
#define CALLLOG_LOAD_MAX_BYTES ((uint64_t)1 << 30)  /* a records.jsonl larger than this is refused */
#define CALLLOG_RECORD_MAX_BYTES ((uint64_t)64 << 20) /* one record (one line) */
/* The largest allowed max_bytes: a log that reached it, plus its last record and a resume's
 * answer, still loads. */
#define CALLLOG_MAX_BYTES_LIMIT (CALLLOG_LOAD_MAX_BYTES - 2 * CALLLOG_RECORD_MAX_BYTES)
#define CALLLOG_MAX_RECORDS_LIMIT 10000000u
typedef struct calllog_caps {
    uint64_t max_records;
    uint64_t max_bytes;
} calllog_caps;

/* CHIDORI_LOG_MAX_RECORDS and CHIDORI_LOG_MAX_BYTES (checked when the settings were built; NULL:
 * the defaults). */
struct settings;
void calllog_caps_from_settings(calllog_caps *caps, const struct settings *s);
void calllog_set_caps(calllog *log, const calllog_caps *caps);

calllog *calllog_new(void);
void calllog_free(calllog *log);
/* calllog_free for a process about to exit: the file is closed and the log's own structure freed,
 * but the loaded records' values are left to the exit (one free each was about 1 k instructions a
 * record at the end of a long resume). */
void calllog_free_at_exit(calllog *log);
void calllog_set_mode(calllog *log, calllog_mode mode);

/* Load records.jsonl for replay. 0, or -1 with *error. */
int calllog_load(calllog *log, const char *path, char **error);
/* Load records given as JSON objects (an array; from a database rather than a file), checked as
 * strictly as the lines of a file. source names them in errors. 0, or -1 with *error. */
int calllog_load_records(calllog *log, const json_t *records, const char *source, char **error);
/* Append every new record to path (created if missing; it must be a regular file), flushed to disk
 * as it is written. A torn last line (no newline: a crash mid-append) is cut off first and the
 * file flushed, so the next record starts on a line of its own; complete lines are never cut.
 * companion (may be NULL) is a file the log depends on (the run's run.json): it is flushed to
 * disk, with its folder, before the first record, so no record is ever durable without it. */
int calllog_persist_to(calllog *log, const char *path, const char *companion, char **error);

/* A sink is told of every record appended (after it is in the file, if there is one), as the
 * record's JSON (owned by the log; copy what you keep). It returns 0, or -1 with *error when it
 * could not keep the record: the append then fails, and with it the run. Loaded records are not
 * passed to it. */
typedef int calllog_sink_fn(void *ctx, const json_t *record, char **error);
void calllog_set_sink(calllog *log, calllog_sink_fn *fn, void *ctx);

/* Records in the log: loaded plus appended. */
size_t calllog_count(const calllog *log);
/* The records held in memory (the loaded ones, in seq order, and a resume's answer): index <
 * calllog_held. Appended records are not held. */
size_t calllog_held(const calllog *log);
const call_record *calllog_get(const calllog *log, size_t index);
/* Whether the log has a record of seq (binary search over the loaded records). */
bool calllog_has_seq(const calllog *log, uint64_t seq);
/* The held record of seq, or NULL. */
const call_record *calllog_find_seq(const calllog *log, uint64_t seq);

/* Check a paused run's pending call against the loaded log before it is resumed: seq is newer
 * than every record and not recorded; each open call (outermost first, strictly ascending, older
 * than seq) has no record of its own; parent_seq is the innermost open call (0 with none); and every
 * record whose parent call has no record belongs to one of the open calls. 0, or -1 with *error. */
int calllog_check_pending(const calllog *log, uint64_t seq, uint64_t parent_seq, const uint64_t *open, size_t n_open,
                          char **error);

typedef enum lookup_outcome { LOOKUP_LIVE, LOOKUP_REPLAYED, LOOKUP_FAILED, LOOKUP_PAUSED } lookup_outcome;

/* Replay (replay-only mode) of a run that paused: pending is the call it paused on ({seq,
 * parent_seq?, function, args, open_calls}). Past the end of the log, the nested agents that were
 * still running are started again (their records replay) and that very call pauses the replay as it
 * paused the run (LOOKUP_PAUSED); any other call is still an error. */
void calllog_expect_pause(calllog *log, const json_t *pending);

/* Replay lookup for one call made under parent_seq (nests: the op starts a nested run, whose
 * calls a paused run's replay may meet past the end of its log). LOOKUP_REPLAYED: *rec is the recorded call
 * (now consumed). LOOKUP_LIVE: perform it; *seq is the seq reserved for its record.
 * LOOKUP_PAUSED: the replay of a paused run reached the call it paused on (*seq is its seq).
 * LOOKUP_FAILED: *error says why (divergence, or a live call in replay-only mode). */
lookup_outcome calllog_lookup(calllog *log, uint64_t parent_seq, const char *function, bool nests,
                              const json_t *args, const call_record **rec, uint64_t *seq, char **error);
/* The same, where match decides whether a record of the same function answers args (NULL: its
 * args equal them). */
typedef bool calllog_match_fn(const call_record *rec, const json_t *args, void *ctx);
lookup_outcome calllog_lookup_match(calllog *log, uint64_t parent_seq, const char *function, bool nests,
                                    const json_t *args, calllog_match_fn *match, void *ctx,
                                    const call_record **rec, uint64_t *seq, char **error);

/* The next unconsumed record under parent_seq, or NULL. Looking does not consume it: only the
 * functions of this file move the replay cursor (calllog_lookup, calllog_take_step). */
const call_record *calllog_peek(calllog *log, uint64_t parent_seq);

/* Up to max of the next unconsumed records under parent_seq, in the order replay meets them,
 * written to out; how many. Looking does not consume them (an isolated run's replay ahead:
 * isolate/replay_ahead.c). */
size_t calllog_upcoming(calllog *log, uint64_t parent_seq, const call_record **out, size_t max);

/* chidori.step's cache: when the next unconsumed record under parent_seq is a record of function
 * (the step op) whose args name `name`, it is consumed and returned; otherwise NULL, and nothing
 * is consumed. */
const call_record *calllog_take_step(calllog *log, uint64_t parent_seq, const char *function, const json_t *name);

/* Reserve the seq of a live call. Seqs queued with calllog_queue_seqs are handed out first:
 * a resumed run gives the calls that were in progress when it paused (nested agents) the seqs
 * their recorded children already point to. */
uint64_t calllog_reserve_seq(calllog *log);
/* A member's log (host/member.h): new seqs start after seq (raised to it, never lowered). */
void calllog_start_after(calllog *log, uint64_t seq);
void calllog_queue_seqs(calllog *log, const uint64_t *seqs, size_t n);

/* Append a performed call and persist it (to the file and the sink; it is not kept in memory).
 * 0, or -1 with *error when it cannot be written, or when the record alone is over
 * CALLLOG_RECORD_MAX_BYTES (it would make the log unloadable); the run must then fail: an
 * unrecorded effect cannot be replayed. */
int calllog_append(calllog *log, uint64_t seq, uint64_t parent_seq, const char *function, const json_t *args,
                   const json_t *result, const char *error, double duration_ms, int64_t timestamp_ms,
                   char **io_error);
/* The same with the record's token_usage and extra keys (either may be NULL; not taken). */
int calllog_append_full(calllog *log, uint64_t seq, uint64_t parent_seq, const char *function, const json_t *args,
                        const json_t *result, const char *error, double duration_ms, int64_t timestamp_ms,
                        const json_t *token_usage, const json_t *extra, char **io_error);
/* The same for a trace record (an OP_TRACE op's: ops.h): it may wait in memory, to be written with
 * the next record of any other kind, by calllog_flush, or once 64 KiB or 200 ms of them wait (the
 * age checked at each append). Written in order with the rest: the file always holds a prefix of
 * what was appended. A failed write is reported by the append or flush that made it. */
int calllog_append_trace(calllog *log, uint64_t seq, uint64_t parent_seq, const char *function, const json_t *args,
                         const json_t *result, const char *error, double duration_ms, int64_t timestamp_ms,
                         const json_t *token_usage, const json_t *extra, char **io_error);
/* Write the trace records still waiting (0 when none). 0, or -1 with *error as an append's. Called
 * before a call acts outside the run, and when the run ends (runner.c); freeing the log writes them
 * too, ignoring an error. */
int calllog_flush(calllog *log, char **io_error);
/* The same, for a record the run itself must then replay (a resumed input's answer): it is also
 * held in memory, unconsumed. */
int calllog_append_for_replay(calllog *log, uint64_t seq, uint64_t parent_seq, const char *function,
                              const json_t *args, const json_t *result, int64_t timestamp_ms, char **io_error);
/* Answer a paused run's pending call before it is resumed: check the call against the log
 * (calllog_check_pending), queue the seqs of the calls that were open (calllog_queue_seqs), and
 * append the answer as the record of seq that the resumed run then replays
 * (calllog_append_for_replay). 0, or -1 with *error (nothing is queued when the check fails). */
int calllog_answer_pending(calllog *log, uint64_t seq, uint64_t parent_seq, const uint64_t *open, size_t n_open,
                           const char *function, const json_t *args, const json_t *answer, int64_t timestamp_ms,
                           char **error);

/* The record as JSON, in the shape it is written (caller frees). */
json_t *call_record_to_json(const call_record *r);
/* The same record as the compact line it is written as, without its newline (caller frees):
 * json_dump(call_record_to_json(r)) byte for byte, built without the tree. */
char *call_record_line(const call_record *r, size_t *len);
/* A line of records.jsonl in the shape call_record_line writes, read into *out without building
 * the line's tree: true with the record loading gives, or false (nothing kept) for a line that
 * only the general path reads or refuses. What calllog_load tries first on every line; exposed
 * for the fuzz target and the unit tests that hold it equal to that path. */
bool call_record_read_line(const char *line, size_t len, call_record *out);
/* Check one record given as JSON (a line of records.jsonl, an element of a call log sent to serve)
 * and read it into *out (fields owned by *out; free with call_record_clear). NULL, or what is wrong
 * with it. Both shapes (see above). The one parser of a record: every loader goes through it. */
const char *call_record_parse(const json_t *v, call_record *out);
void call_record_clear(call_record *r);
/* r's args (never NULL for a loaded record): parsed from their text on the first read, once, even
 * when two threads read at once. */
const json_t *call_record_args(const call_record *r);
/* Whether args are equal to r's (json_equal): by their compact text first, so that a replayed call
 * whose args are written as the record has them parses nothing. */
bool call_record_args_equal(const call_record *r, const json_t *args);

#endif
