/* calllog.c — records, persistence, replay cursors, divergence (see calllog.h).
 *
 * Owns the records of one run and the append-only file they are written to. Trusts its callers
 * (host.c); trusts nothing in a file it loads.
 */
#define _GNU_SOURCE
#include "host/calllog.h"
#include "util/buf.h"
#include "util/files.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LOG_MAX_BYTES ((size_t)1 << 30)   /* a records.jsonl larger than this is refused */
#define RECORD_MAX_BYTES ((size_t)64 << 20)
#define DIVERGENCE_EXCERPT 400

typedef struct cursor {
    uint64_t parent_seq;
    size_t next; /* index into items to resume the scan from */
} cursor;

struct calllog {
    call_record *items;
    size_t len, cap;
    uint64_t max_seq;
    calllog_mode mode;
    int fd; /* append target, -1 when in memory only */
    cursor *cursors;
    size_t n_cursors;
    char *companion;  /* flushed before the first record (see calllog_persist_to) */
    uint64_t *queued; /* seqs to hand out before new ones */
    size_t n_queued;
    calllog_sink_fn *sink; /* told of every appended record (see calllog_set_sink) */
    void *sink_ctx;
};

calllog *calllog_new(void)
{
    calllog *log = xcalloc(1, sizeof *log);
    log->fd = -1;
    return log;
}

static void record_clear(call_record *r)
{
    free(r->function);
    json_free(r->args);
    json_free(r->result);
    free(r->error);
}

void calllog_free(calllog *log)
{
    if (!log) return;
    for (size_t i = 0; i < log->len; i++) record_clear(&log->items[i]);
    free(log->items);
    free(log->cursors);
    free(log->queued);
    free(log->companion);
    if (log->fd >= 0) close(log->fd);
    free(log);
}

void calllog_set_mode(calllog *log, calllog_mode mode) { log->mode = mode; }
size_t calllog_count(const calllog *log) { return log->len; }

const call_record *calllog_get(const calllog *log, size_t index)
{
    return index < log->len ? &log->items[index] : NULL;
}

static call_record *push(calllog *log)
{
    if (log->len == log->cap) {
        log->cap = log->cap ? log->cap * 2 : 16;
        log->items = xrealloc(log->items, log->cap * sizeof(call_record));
    }
    call_record *r = &log->items[log->len++];
    memset(r, 0, sizeof *r);
    return r;
}

/* ---------- loading ---------- */

static bool as_seq(const json_t *v, uint64_t *out)
{
    if (!v || v->type != JSON_NUMBER) return false;
    double d = v->u.number;
    if (!(d >= 1 && d <= 9007199254740991.0) || floor(d) != d) return false;
    *out = (uint64_t)d;
    return true;
}

/* Check one record's shape and add it. NULL, or what is wrong with it. */
static const char *add_record(calllog *log, const json_t *v)
{
    uint64_t seq = 0, parent = 0;
    const json_t *fn = json_object_get(v, "function");
    const json_t *args = json_object_get(v, "args");
    const json_t *err = json_object_get(v, "error");
    const json_t *par = json_object_get(v, "parent_seq");
    const json_t *dur = json_object_get(v, "duration_ms");
    const json_t *ts = json_object_get(v, "timestamp");
    if (!json_is_object(v)) return "a record must be an object";
    if (!as_seq(json_object_get(v, "seq"), &seq)) return "`seq` must be a positive integer";
    if (!json_is_string(fn) || !fn->u.string.len || strlen(fn->u.string.bytes) != fn->u.string.len)
        return "`function` must be a name";
    if (!json_is_object(args)) return "`args` must be an object";
    if (err && err->type != JSON_NULL && !json_is_string(err)) return "`error` must be a string";
    if (par && par->type != JSON_NULL && (!as_seq(par, &parent) || parent >= seq))
        return "`parent_seq` must be the seq of an earlier call";
    call_record *r = push(log);
    r->seq = seq;
    r->parent_seq = parent;
    r->function = xstrdup(fn->u.string.bytes);
    r->args = json_copy(args);
    bool failed = err && err->type == JSON_STRING;
    r->error = failed ? xstrndup(err->u.string.bytes, err->u.string.len) : NULL;
    r->result = failed ? NULL : json_copy(json_object_get(v, "result") ? json_object_get(v, "result") : NULL);
    if (!failed && !r->result) r->result = json_null();
    r->duration_ms = dur && dur->type == JSON_NUMBER ? dur->u.number : 0;
    r->timestamp_ms = ts && ts->type == JSON_NUMBER && fabs(ts->u.number) < 9e15 ? (int64_t)ts->u.number : 0;
    if (seq > log->max_seq) log->max_seq = seq;
    return NULL;
}

static int parse_record(calllog *log, const char *line, size_t len, int lineno, char **error)
{
    json_limits lim = {RECORD_MAX_BYTES, JSON_DEFAULT_MAX_DEPTH, 0};
    json_error jerr;
    json_t *v = json_parse(line, len, &lim, &jerr);
    if (!v) {
        *error = xasprintf("line %d: not JSON (%d:%d: %s)", lineno, jerr.line, jerr.col, jerr.message);
        return -1;
    }
    const char *why = add_record(log, v);
    json_free(v);
    if (why) {
        *error = xasprintf("line %d: %s", lineno, why);
        return -1;
    }
    return 0;
}

static int by_seq(const void *a, const void *b)
{
    const call_record *x = a, *y = b;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Records are appended when calls complete, so a nested run's records precede its call_agent
 * record; replay walks them in seq order. A seq may appear once. */
static int finish_load(calllog *log, const char *source, char **error)
{
    if (log->len > 1) qsort(log->items, log->len, sizeof(call_record), by_seq);
    for (size_t i = 1; i < log->len; i++) /* sorted: a duplicate seq sits next to its twin */
        if (log->items[i].seq == log->items[i - 1].seq) {
            *error = xasprintf("%s: duplicate `seq` %llu", source, (unsigned long long)log->items[i].seq);
            return -1;
        }
    return 0;
}

int calllog_load(calllog *log, const char *path, char **error)
{
    size_t len;
    char *text = read_file_capped(path, LOG_MAX_BYTES, &len, error);
    if (!text) return -1;
    size_t pos = 0;
    int lineno = 0;
    while (pos < len) {
        lineno++;
        char *nl = memchr(text + pos, '\n', len - pos);
        if (!nl) break; /* a last line without its newline was cut short by a crash: not a record */
        size_t n = (size_t)(nl - (text + pos));
        if (n > 0) {
            char *msg = NULL;
            if (parse_record(log, text + pos, n, lineno, &msg) < 0) {
                *error = xasprintf("%s: %s", path, msg);
                free(msg);
                free(text);
                return -1;
            }
        }
        pos += n + 1;
    }
    free(text);
    return finish_load(log, path, error);
}

int calllog_load_records(calllog *log, const json_t *records, const char *source, char **error)
{
    if (!json_is_array(records)) {
        *error = xasprintf("%s: the call log must be an array of records", source);
        return -1;
    }
    for (size_t i = 0; i < records->u.array.len; i++) {
        const char *why = add_record(log, records->u.array.items[i]);
        if (why) {
            *error = xasprintf("%s: record %zu: %s", source, i + 1, why);
            return -1;
        }
    }
    return finish_load(log, source, error);
}

void calllog_set_sink(calllog *log, calllog_sink_fn *fn, void *ctx)
{
    log->sink = fn;
    log->sink_ctx = ctx;
}

int calllog_persist_to(calllog *log, const char *path, const char *companion, char **error)
{
    free(log->companion);
    log->companion = companion ? xstrdup(companion) : NULL;
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0) {
        *error = xasprintf("cannot write the call log %s: %s", path, strerror(errno));
        return -1;
    }
    if (log->fd >= 0) close(log->fd);
    log->fd = fd;
    return 0;
}

/* ---------- replay ---------- */

static cursor *cursor_for(calllog *log, uint64_t parent)
{
    for (size_t i = 0; i < log->n_cursors; i++)
        if (log->cursors[i].parent_seq == parent) return &log->cursors[i];
    log->cursors = xrealloc(log->cursors, (log->n_cursors + 1) * sizeof(cursor));
    log->cursors[log->n_cursors] = (cursor){parent, 0};
    return &log->cursors[log->n_cursors++];
}

call_record *calllog_peek(calllog *log, uint64_t parent_seq)
{
    if (log->mode == LOG_LIVE) return NULL;
    cursor *c = cursor_for(log, parent_seq);
    while (c->next < log->len &&
           (log->items[c->next].consumed || log->items[c->next].parent_seq != parent_seq))
        c->next++;
    return c->next < log->len ? &log->items[c->next] : NULL;
}

static char *excerpt_json(const json_t *v)
{
    size_t n;
    char *s = json_dump(v, JSON_COMPACT, &n);
    if (n > DIVERGENCE_EXCERPT) strcpy(s + DIVERGENCE_EXCERPT - 3, "...");
    return s;
}

uint64_t calllog_reserve_seq(calllog *log)
{
    if (log->n_queued) {
        uint64_t seq = log->queued[0];
        memmove(log->queued, log->queued + 1, --log->n_queued * sizeof(uint64_t));
        return seq;
    }
    return ++log->max_seq;
}

void calllog_queue_seqs(calllog *log, const uint64_t *seqs, size_t n)
{
    log->queued = xrealloc(log->queued, (log->n_queued + n + 1) * sizeof(uint64_t));
    memcpy(log->queued + log->n_queued, seqs, n * sizeof(uint64_t));
    log->n_queued += n;
}

lookup_outcome calllog_lookup(calllog *log, uint64_t parent_seq, const char *function, const json_t *args,
                              const call_record **rec, uint64_t *seq, char **error)
{
    *rec = NULL;
    call_record *next = calllog_peek(log, parent_seq);
    if (next) {
        if (strcmp(next->function, function) == 0 && json_equal(next->args, args)) {
            next->consumed = true;
            *rec = next;
            return LOOKUP_REPLAYED;
        }
        char *want = excerpt_json(next->args), *got = excerpt_json(args);
        *error = xasprintf("divergence at seq %llu: the log has `%s` %s, but the agent called `%s` %s",
                           (unsigned long long)next->seq, next->function, want, function, got);
        free(want);
        free(got);
        return LOOKUP_FAILED;
    }
    if (log->mode == LOG_REPLAY_ONLY) {
        char *got = excerpt_json(args);
        *error = xasprintf("replay: the agent made a call the log does not have: `%s` %s (the log ends at seq %llu)",
                           function, got, (unsigned long long)log->max_seq);
        free(got);
        return LOOKUP_FAILED;
    }
    *seq = calllog_reserve_seq(log);
    return LOOKUP_LIVE;
}

/* ---------- appending ---------- */

json_t *call_record_to_json(const call_record *r)
{
    json_t *o = json_object();
    json_object_set(o, "seq", json_number((double)r->seq));
    if (r->parent_seq) json_object_set(o, "parent_seq", json_number((double)r->parent_seq));
    json_object_set(o, "function", json_string(r->function));
    json_object_set(o, "args", json_copy(r->args));
    json_object_set(o, "result", r->result ? json_copy(r->result) : json_null());
    json_object_set(o, "duration_ms", json_number(round(r->duration_ms * 1000) / 1000));
    json_object_set(o, "timestamp", json_number((double)r->timestamp_ms));
    if (r->error) json_object_set(o, "error", json_string(r->error));
    return o;
}

static int write_all(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

static int sync_path(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    int rc = fsync(fd);
    close(fd);
    return rc;
}

/* The folder holding path, so the file's name (a rename) is durable too. */
static int sync_parent(const char *path)
{
    char *dir = xstrdup(path);
    char *slash = strrchr(dir, '/');
    if (slash) *slash = '\0';
    int rc = sync_path(slash ? dir : ".");
    free(dir);
    return rc;
}

/* Append one record to the file, flushed to disk (its companion first, once). */
static int write_record(calllog *log, const json_t *j, char **io_error)
{
    if (log->companion) {
        if (sync_path(log->companion) != 0 || sync_parent(log->companion) != 0) {
            *io_error = xasprintf("cannot flush %s to disk: %s", log->companion, strerror(errno));
            return -1;
        }
        free(log->companion);
        log->companion = NULL;
    }
    size_t n;
    char *line = json_dump(j, JSON_COMPACT, &n);
    line = xrealloc(line, n + 2);
    line[n++] = '\n';
    int rc = write_all(log->fd, line, n);
    free(line);
    if (rc == 0 && fdatasync(log->fd) != 0 && errno != EINVAL) rc = -1;
    if (rc != 0) {
        *io_error = xasprintf("cannot append to the call log: %s", strerror(errno));
        return -1;
    }
    return 0;
}

int calllog_append(calllog *log, uint64_t seq, uint64_t parent_seq, const char *function, const json_t *args,
                   const json_t *result, const char *error, double duration_ms, int64_t timestamp_ms,
                   char **io_error)
{
    call_record *r = push(log);
    r->seq = seq;
    r->parent_seq = parent_seq;
    r->function = xstrdup(function);
    r->args = json_copy(args);
    r->result = error ? NULL : json_copy(result ? result : NULL);
    if (!error && !r->result) r->result = json_null();
    r->error = error ? xstrdup(error) : NULL;
    r->duration_ms = duration_ms;
    r->timestamp_ms = timestamp_ms;
    r->consumed = true;
    if (seq > log->max_seq) log->max_seq = seq;
    if (log->fd < 0 && !log->sink) return 0;
    json_t *j = call_record_to_json(r);
    int rc = log->fd >= 0 ? write_record(log, j, io_error) : 0;
    if (rc == 0 && log->sink) rc = log->sink(log->sink_ctx, j, io_error);
    json_free(j);
    return rc;
}
