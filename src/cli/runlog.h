/* runlog.h — reading a run's call log for `chidori runs` (runs_cmd.c): one records.jsonl line
 * into a call row (seq, nesting, function, a short target, duration, tokens, error), and a whole
 * log into rows and totals.
 *
 * Trusts nothing: records.jsonl is a file on disk that anything may have written. Each line is
 * capped (CALLLOG_RECORD_MAX_BYTES) and parsed with limits, the file is read up to
 * CALLLOG_LOAD_MAX_BYTES, a malformed line becomes a warning (the reader goes on), and a last line
 * without its newline (a run killed mid-write, or one still writing) is reported as cut short.
 * The strings in a row are the log's bytes: print them through util/termtext.h.
 */
#ifndef CHIDORI_RUNLOG_H
#define CHIDORI_RUNLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/buf.h"
#include "util/json.h"

typedef struct runlog_row {
    uint64_t seq, parent_seq;  /* parent_seq 0: a call of the run itself */
    char *function;            /* "tool", "prompt", "http", ... */
    char *target;              /* what it acted on: a tool name, a URL's host, a path, a model; may be NULL */
    double duration_ms;        /* -1 when the record has none */
    int64_t timestamp_ms;      /* 0 when the record has none */
    uint64_t tokens_in, tokens_out;
    uint64_t cache_creation, cache_read; /* cached input tokens, when the provider reported them */
    bool has_tokens;           /* a prompt record with usage */
    char *model;               /* prompt: the model that answered, or NULL */
    char *error;               /* the call's error, or NULL */
} runlog_row;

typedef struct runlog {
    runlog_row *rows;
    size_t len, cap;
    uint64_t tokens_in, tokens_out;
    int64_t last_end_ms;       /* the latest timestamp + duration of any record, 0 if none */
    buf warnings;              /* one line per problem met, each ending in '\n' */
    size_t bad_lines;
    bool torn_tail;            /* the last line had no newline and did not parse */
} runlog;

/* One line (without its newline) into *row. 0, or -1 with *why (static text) when it is not a call
 * record. */
/* What a call acted on (the TARGET column), cut at 120 bytes or the first newline; NULL when
 * the args name nothing. Not yet made safe for a terminal. Caller frees. */
char *runlog_target(const char *fn, const json_t *args, const json_t *result);
int runlog_parse_line(const char *line, size_t len, runlog_row *row, const char **why);
void runlog_row_clear(runlog_row *row);

/* Feed bytes: complete lines are parsed into log->rows (line numbers counted from first_line);
 * returns how many bytes were consumed (the rest is an incomplete last line, kept by the caller
 * for the next feed). A line longer than the record cap is skipped with a warning. */
size_t runlog_feed(runlog *log, const char *data, size_t len, size_t *line_no);
/* The rest of the data at end of file: a cut-short last line (warned, and torn_tail set) unless
 * it parses as a whole record. */
void runlog_finish(runlog *log, const char *rest, size_t len, size_t line_no);

/* Read <path> (a regular file only), streamed a line at a time, up to CALLLOG_LOAD_MAX_BYTES: 0, or
 * -1 with *error when it cannot be opened (a missing file is an empty log: 0). */
int runlog_read(const char *path, runlog *log, char **error);
void runlog_clear(runlog *log);

#endif
