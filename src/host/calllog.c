/* calllog.c — records, persistence, replay cursors, divergence, caps (see calllog.h).
 *
 * Owns the records of one run loaded for replay and the append-only file new ones are written to
 * (new records are not kept: memory is bounded by what replay needs, which the load limit bounds).
 * Trusts its callers (host.c); trusts nothing in a file it loads nor what sits at its path.
 */
#define _GNU_SOURCE
#include "host/calllog.h"
#include "settings/settings.h"
#include "util/buf.h"
#include "util/files.h"
#include "util/rfc3339.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#define LOG_MAX_BYTES ((size_t)CALLLOG_LOAD_MAX_BYTES)
#define RECORD_MAX_BYTES ((size_t)CALLLOG_RECORD_MAX_BYTES)
#define LOAD_CHUNK ((size_t)1 << 20)
#define DIVERGENCE_EXCERPT 400

typedef struct cursor {
    uint64_t parent_seq;
    size_t next; /* index into items to resume the scan from */
} cursor;

struct calllog {
    call_record *items; /* loaded records (sorted by seq) and a resume's answer */
    size_t len, cap;
    size_t n_sorted; /* items[0..n_sorted) are the loaded records, sorted by seq */
    uint64_t total_records, total_bytes; /* in the log: loaded plus appended (lines, newline included) */
    calllog_caps caps;
    uint64_t max_seq;
    calllog_mode mode;
    int fd; /* append target, -1 when in memory only */
    bool sync_each; /* fd is not O_DSYNC: each append is followed by fdatasync (calllog_persist_to) */
    char *path; /* its path, while its torn tail (if any) is still to be cut (see write_record) */
    cursor *cursors;
    size_t n_cursors;
    char *companion;  /* flushed before the first record (see calllog_persist_to) */
    uint64_t *queued; /* seqs to hand out before new ones */
    size_t n_queued;
    calllog_sink_fn *sink; /* told of every appended record (see calllog_set_sink) */
    void *sink_ctx;
    json_t *pause; /* replay of a paused run: the call it paused on (see calllog_expect_pause) */
    buf line; /* the lines waiting to be written (the first `waiting` bytes), then the one being appended;
                 kept between appends (one allocation for the run's log) */
    size_t waiting;            /* bytes of trace records not yet written (calllog_append_trace) */
    int64_t waiting_since_ms;  /* the timestamp of the first of them */
    char *names[16];           /* the loaded records' function names, each once (function_shared) */
    size_t n_names;
};

calllog *calllog_new(void)
{
    calllog *log = xcalloc(1, sizeof *log);
    log->fd = -1;
    log->caps = (calllog_caps){CALLLOG_DEFAULT_MAX_RECORDS, CALLLOG_DEFAULT_MAX_BYTES};
    return log;
}

/* ---------- caps ---------- */

void calllog_caps_from_settings(calllog_caps *caps, const settings *s)
{
    caps->max_records = settings_u64(s, "CHIDORI_LOG_MAX_RECORDS");
    caps->max_bytes = settings_u64(s, "CHIDORI_LOG_MAX_BYTES");
}

void calllog_set_caps(calllog *log, const calllog_caps *caps)
{
    log->caps.max_records = caps && caps->max_records ? caps->max_records : CALLLOG_DEFAULT_MAX_RECORDS;
    log->caps.max_bytes = caps && caps->max_bytes ? caps->max_bytes : CALLLOG_DEFAULT_MAX_BYTES;
    if (log->caps.max_records > CALLLOG_MAX_RECORDS_LIMIT) log->caps.max_records = CALLLOG_MAX_RECORDS_LIMIT;
    if (log->caps.max_bytes > CALLLOG_MAX_BYTES_LIMIT) log->caps.max_bytes = CALLLOG_MAX_BYTES_LIMIT;
}

/* The error of a log that is full, or NULL. It depends only on the log's contents, so a replay
 * reaches it at the same call with the same words. */
static char *cap_reached(const calllog *log)
{
    if (log->total_records >= log->caps.max_records)
        return xasprintf("call log limit reached: the run has recorded %llu calls, the most CHIDORI_LOG_MAX_RECORDS "
                         "allows (%llu); make fewer recorded calls, or raise the setting",
                         (unsigned long long)log->total_records, (unsigned long long)log->caps.max_records);
    if (log->total_bytes >= log->caps.max_bytes)
        return xasprintf("call log limit reached: the run's records take %llu bytes, at or over CHIDORI_LOG_MAX_BYTES "
                         "(%llu); record less (smaller arguments and results, fewer calls), or raise the setting",
                         (unsigned long long)log->total_bytes, (unsigned long long)log->caps.max_bytes);
    return NULL;
}

void call_record_clear(call_record *r)
{
    if (!r->function_shared) free(r->function);
    json_free(r->args_tree);
    free(r->args_text);
    json_free(r->result);
    free(r->error);
    json_free(r->token_usage);
    json_free(r->extra);
    memset(r, 0, sizeof *r);
}
#define record_clear call_record_clear

static void free_log(calllog *log, bool records)
{
    if (!log) return;
    char *lost = NULL;
    if (calllog_flush(log, &lost) != 0) free(lost); /* the runner flushed and reported; a backstop */
    for (size_t i = 0; records && i < log->len; i++) record_clear(&log->items[i]);
    for (size_t i = 0; records && i < log->n_names; i++) free(log->names[i]);
    free(log->items);
    free(log->cursors);
    free(log->queued);
    free(log->companion);
    free(log->path);
    json_free(log->pause);
    buf_free(&log->line);
    if (log->fd >= 0) close(log->fd);
    free(log);
}

void calllog_free(calllog *log) { free_log(log, true); }
void calllog_free_at_exit(calllog *log) { free_log(log, false); }

void calllog_set_mode(calllog *log, calllog_mode mode) { log->mode = mode; }
size_t calllog_count(const calllog *log) { return (size_t)log->total_records; }
size_t calllog_held(const calllog *log) { return log->len; }

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

static bool as_count(const json_t *v)
{
    return v && v->type == JSON_NUMBER && v->u.number >= 0 && v->u.number <= 9007199254740991.0 &&
           floor(v->u.number) == v->u.number;
}

/* The keys of a record that are not `extra`. */
static bool known_key(const char *k)
{
    switch (k[0]) { /* by first letter: every record's every key is asked (replay loads them all) */
    case 's': return !strcmp(k, "seq");
    case 'p': return !strcmp(k, "parent_seq");
    case 'f': return !strcmp(k, "function");
    case 'a': return !strcmp(k, "args");
    case 'r': return !strcmp(k, "result");
    case 'd': return !strcmp(k, "duration_ms") || !strcmp(k, "duration_us");
    case 't': return !strcmp(k, "timestamp") || !strcmp(k, "token_usage");
    case 'e': return !strcmp(k, "error");
    default: return false;
    }
}

/* v's value at key, moved out of v when take (v is then the caller's to free, with a hole there):
 * a log being loaded hands its parsed values to its records instead of copying them. */
static json_t *value_of(const json_t *v, const char *key, bool take)
{
    const json_t *found = json_object_get(v, key);
    if (!found) return NULL;
    if (!take) return json_copy(found);
    json_member *items = ((json_t *)v)->u.object.items;
    for (size_t i = 0; i < v->u.object.len; i++)
        if (items[i].value == found) {
            items[i].value = NULL;
            break;
        }
    return (json_t *)found;
}

static const char *record_parse(const json_t *v, call_record *out, bool take);

const char *call_record_parse(const json_t *v, call_record *out) { return record_parse(v, out, false); }

static const char *record_parse(const json_t *v, call_record *out, bool take)
{
    memset(out, 0, sizeof *out);
    uint64_t seq = 0, parent = 0;
    if (!json_is_object(v)) return "a record must be an object";
    const json_t *fn = json_object_get(v, "function");
    const json_t *args = json_object_get(v, "args");
    const json_t *err = json_object_get(v, "error");
    const json_t *par = json_object_get(v, "parent_seq");
    const json_t *dur = json_object_get(v, "duration_ms");
    const json_t *dus = json_object_get(v, "duration_us");
    const json_t *ts = json_object_get(v, "timestamp");
    const json_t *usage = json_object_get(v, "token_usage");
    if (!as_seq(json_object_get(v, "seq"), &seq)) return "`seq` must be a positive integer";
    if (!json_is_string(fn) || !fn->u.string.len || strlen(fn->u.string.bytes) != fn->u.string.len)
        return "`function` must be a name";
    if (!json_is_object(args)) return "`args` must be an object";
    if (err && err->type != JSON_NULL && !json_is_string(err)) return "`error` must be a string";
    if (par && par->type != JSON_NULL && (!as_seq(par, &parent) || parent >= seq))
        return "`parent_seq` must be the seq of an earlier call";
    int64_t when = 0;
    if (json_is_string(ts)) {
        if (!rfc3339_parse_ms(ts->u.string.bytes, ts->u.string.len, &when))
            return "`timestamp` must be an RFC 3339 time (2026-07-08T03:57:42.291Z) or milliseconds since 1970";
    } else if (ts && ts->type == JSON_NUMBER) {
        when = fabs(ts->u.number) < 9e15 ? (int64_t)ts->u.number : 0;
    } else if (ts && ts->type != JSON_NULL) {
        return "`timestamp` must be an RFC 3339 time (2026-07-08T03:57:42.291Z) or milliseconds since 1970";
    }
    if (dur && dur->type != JSON_NULL && (dur->type != JSON_NUMBER || !(dur->u.number >= 0 && dur->u.number < 1e15)))
        return "`duration_ms` must be a number of milliseconds";
    if (dus && !as_count(dus)) return "`duration_us` must be a whole number of microseconds";
    if (usage && (!json_is_object(usage) || !as_count(json_object_get(usage, "input_tokens")) ||
                  !as_count(json_object_get(usage, "output_tokens"))))
        return "`token_usage` must be an object with whole `input_tokens` and `output_tokens`";
    out->seq = seq;
    out->parent_seq = parent;
    out->function = xstrdup(fn->u.string.bytes);
    bool failed = err && err->type == JSON_STRING;
    out->error = failed ? xstrndup(err->u.string.bytes, err->u.string.len) : NULL;
    out->duration_ms = dus ? dus->u.number / 1000 : dur && dur->type == JSON_NUMBER ? dur->u.number : 0;
    out->timestamp_ms = when;
    out->legacy = !json_is_string(ts); /* our previous shape wrote milliseconds (or, in tests, nothing) */
    out->ours = out->legacy || dus != NULL; /* we write duration_us; the original does not */
    /* every check is done: from here on values may move out of v (take) */
    for (size_t i = 0; i < v->u.object.len; i++) {
        json_member *m = &((json_t *)v)->u.object.items[i];
        if (strlen(m->key) != m->key_len || known_key(m->key)) continue;
        if (!out->extra) out->extra = json_object();
        json_object_set(out->extra, m->key, take ? m->value : json_copy(m->value));
        if (take) m->value = NULL;
    }
    out->args_tree = value_of(v, "args", take);
    out->result = failed ? NULL : value_of(v, "result", take);
    if (!failed && !out->result) out->result = json_null();
    out->token_usage = usage ? value_of(v, "token_usage", take) : NULL;
    return NULL;
}

/* Check one record's shape and add it. NULL, or what is wrong with it. */
static const char *add_record(calllog *log, const json_t *v, size_t line_bytes, bool take)
{
    call_record tmp;
    const char *why = record_parse(v, &tmp, take);
    if (why) return why;
    call_record *r = push(log);
    *r = tmp;
    r->order = log->len - 1;
    if (r->seq > log->max_seq) log->max_seq = r->seq;
    log->total_records++;
    log->total_bytes += line_bytes;
    return NULL;
}

/* ---------- the record line as we write it, read without its tree ----------
 *
 * Loading parses every line; most are exactly what record_line wrote: {"seq":…,"parent_seq":…?,
 * "function":…,"args":…,"result":…,"duration_ms":…,"token_usage":…?,"timestamp":…,
 * "duration_us":…} with no space, whole numbers and plain ASCII names. Such a line is read here
 * with its args, result and token_usage parsed by json_parse_at (the same parser, at the same
 * depth, with the same count of values and the same limits as a parse of the whole line) and
 * every other member read in place, so the line's outer object, its keys and its scalars are
 * never built and freed. Anything else — a space, an error, another key, another order, a number
 * that is not a plain whole one, an escape, a check that fails — gives up with nothing kept, and
 * the line takes the general path below, which decides and words every error. So a line read
 * here gives the record that path gives; fuzz_calllog holds the two equal for every line. */

typedef struct line_reader {
    const char *s;
    size_t len, pos, values; /* values: counted as json_parse counts them, in the same order */
} line_reader;

static const json_limits record_limits = {RECORD_MAX_BYTES, JSON_DEFAULT_MAX_DEPTH, 0};

static inline __attribute__((always_inline)) bool lit(line_reader *r, const char *text, size_t n)
{ /* inlined: n is a constant at every use, so the compare is a few loads */
    if (r->len - r->pos < n || memcmp(r->s + r->pos, text, n) != 0) return false;
    r->pos += n;
    return true;
}
#define LIT(r, text) lit((r), (text), sizeof(text) - 1)

/* A whole number of 1 to 15 digits, no sign, no leading zero but "0" itself: exact in a double,
 * which is what the parser makes of it. */
static bool whole(line_reader *r, uint64_t *out)
{
    size_t i = r->pos, n = 0;
    uint64_t v = 0;
    while (i < r->len && r->s[i] >= '0' && r->s[i] <= '9' && n < 16) v = v * 10 + (uint64_t)(r->s[i++] - '0'), n++;
    if (n == 0 || n > 15 || (n > 1 && r->s[r->pos] == '0')) return false;
    r->pos = i;
    r->values++;
    *out = v;
    return true;
}

/* A string of printable ASCII without quote or backslash (its bytes are its value). */
static bool plain(line_reader *r, const char **at, size_t *n)
{
    if (r->pos >= r->len || r->s[r->pos] != '"') return false;
    size_t i = r->pos + 1;
    while (i < r->len && json_plain_byte((unsigned char)r->s[i])) i++;
    if (i >= r->len || r->s[i] != '"') return false;
    *at = r->s + r->pos + 1;
    *n = i - r->pos - 1;
    r->pos = i + 1;
    r->values++;
    return true;
}

/* The timestamp's string, up to the first quote, for rfc3339_parse_ms, which reads every byte of it
 * and takes only plain ASCII: what it takes is what plain() then it would take, without a second
 * pass over the bytes. */
static bool time_text(line_reader *r, const char **at, size_t *n)
{
    if (r->pos >= r->len || r->s[r->pos] != '"') return false;
    const char *end = memchr(r->s + r->pos + 1, '"', r->len - r->pos - 1);
    if (!end) return false;
    *at = r->s + r->pos + 1;
    *n = (size_t)(end - *at);
    r->pos += *n + 2;
    r->values++;
    return true;
}

static json_t *member_value(line_reader *r)
{
    return json_parse_at(r->s, r->len, &r->pos, 1, &record_limits, &r->values);
}

/* The literal (null, true, false: 1, 2, 3) at r->pos, its length in *n; 0 for none. */
static inline int literal_at(const line_reader *r, size_t *n)
{
    const char *p = r->s + r->pos;
    size_t left = r->len - r->pos;
    if (left >= 4 && !memcmp(p, "null", 4)) return *n = 4, 1;
    if (left >= 4 && !memcmp(p, "true", 4)) return *n = 4, 2;
    if (left >= 5 && !memcmp(p, "false", 5)) return *n = 5, 3;
    return 0;
}

/* A JSON number's text at i (the parser's grammar); its end, or 0 when there is none. */
static size_t number_end(const char *s, size_t len, size_t i)
{
    if (i < len && s[i] == '-') i++;
    if (i >= len || s[i] < '0' || s[i] > '9') return 0;
    if (s[i] == '0') i++;
    else
        while (i < len && s[i] >= '0' && s[i] <= '9') i++;
    if (i < len && s[i] == '.') {
        if (++i >= len || s[i] < '0' || s[i] > '9') return 0;
        while (i < len && s[i] >= '0' && s[i] <= '9') i++;
    }
    if (i < len && (s[i] == 'e' || s[i] == 'E')) {
        if (++i < len && (s[i] == '+' || s[i] == '-')) i++;
        if (i >= len || s[i] < '0' || s[i] > '9') return 0;
        while (i < len && s[i] >= '0' && s[i] <= '9') i++;
    }
    return i;
}

/* A plain value at r->pos, at depth (the parser's): no space, strings of printable ASCII without an
 * escape, numbers, true, false, null, and arrays and objects of those. true with r->pos past it and
 * its values counted as the parser counts them; false for anything else, or past the parser's depth
 * or count (the caller then leaves the line to the parser). Accepts only what the parser accepts:
 * a record's args scanned here are parsed when first read (call_record_args), and that parse cannot
 * fail. */
static bool scan_plain(line_reader *r, int depth)
{
    /* the parser's limits for a record: record_limits' depth, and its count (0 there: the default) */
    if (depth > record_limits.max_depth || ++r->values > JSON_DEFAULT_MAX_VALUES || r->pos >= r->len) return false;
    const char *s = r->s;
    char c = s[r->pos];
    if (c == '"') {
        const char *at;
        size_t n;
        r->values--; /* plain counts a value; this one is counted above */
        return plain(r, &at, &n);
    }
    if (c == '{' || c == '[') {
        char close = c == '{' ? '}' : ']';
        r->pos++;
        if (r->pos < r->len && s[r->pos] == close) {
            r->pos++;
            return true;
        }
        for (;;) {
            if (c == '{') {
                const char *at;
                size_t n;
                size_t values = r->values;
                if (!plain(r, &at, &n)) return false;
                r->values = values; /* a key is not a value */
                if (r->pos >= r->len || s[r->pos] != ':') return false;
                r->pos++;
            }
            if (!scan_plain(r, depth + 1) || r->pos >= r->len) return false;
            if (s[r->pos] == close) {
                r->pos++;
                return true;
            }
            if (s[r->pos++] != ',') return false;
        }
    }
    size_t n;
    if (literal_at(r, &n)) {
        r->pos += n;
        return true;
    }
    size_t end = number_end(s, r->len, r->pos);
    if (!end) return false;
    r->pos = end;
    return true;
}

/* The args object at r->pos: kept as its text when plain (scan_plain), else parsed. */
static bool args_member(line_reader *r, call_record *out)
{
    size_t start = r->pos, values = r->values;
    if (r->pos < r->len && r->s[r->pos] == '{' && r->pos <= UINT32_MAX && scan_plain(r, 1)) {
        out->args_len = r->pos - start;
        out->args_text = xmalloc(out->args_len + 1);
        memcpy(out->args_text, r->s + start, out->args_len);
        out->args_text[out->args_len] = 0;
        out->args_at = (uint32_t)start;
        return true;
    }
    r->pos = start;
    r->values = values;
    return (out->args_tree = member_value(r)) != NULL && out->args_tree->type == JSON_OBJECT;
}

/* The function name of a record the log loads: the log's one copy of it (of up to 16 names), or a
 * copy of the record's own. */
static char *name_of(calllog *log, const char *fn, size_t n, bool *shared)
{
    *shared = false;
    for (size_t i = 0; log && i < log->n_names; i++)
        if (!strncmp(log->names[i], fn, n) && log->names[i][n] == 0) return *shared = true, log->names[i];
    char *copy = xstrndup(fn, n);
    if (log && log->n_names < sizeof log->names / sizeof *log->names) {
        *shared = true;
        log->names[log->n_names++] = copy;
    }
    return copy;
}

/* The result when it is a literal null, true or false (most are null): its node as the parser
 * makes it, marked where it stands (a record is one line); else the parser's. */
static json_t *result_value(line_reader *r)
{
    size_t n;
    int which = literal_at(r, &n);
    if (!which || r->len - r->pos <= n || r->s[r->pos + n] != ',') return member_value(r);
    if (++r->values > JSON_DEFAULT_MAX_VALUES) return NULL;
    json_t *v = which == 1 ? json_null() : json_bool(which == 2);
    v->line = 1;
    v->col = (int)r->pos + 1;
    r->pos += n;
    return v;
}

static bool fast_record(calllog *log, const char *line, size_t len, call_record *out)
{
    if (len > RECORD_MAX_BYTES) return false;
    line_reader rd = {line, len, 0, 1}; /* the outer object counts first */
    line_reader *r = &rd;
    uint64_t seq, parent = 0, dms, dus;
    const char *fn, *ts;
    size_t fn_len, ts_len;
    json_t *result = NULL, *usage = NULL;
    call_record args = {0}; /* args_tree, or args_text when plain */
    int64_t when;
    if (!LIT(r, "{\"seq\":") || !whole(r, &seq) || seq == 0) return false;
    if (LIT(r, ",\"parent_seq\":") && (!whole(r, &parent) || parent == 0 || parent >= seq)) return false;
    if (!LIT(r, ",\"function\":") || !plain(r, &fn, &fn_len) || fn_len == 0) return false;
    if (!LIT(r, ",\"args\":") || !args_member(r, &args)) goto no;
    if (!LIT(r, ",\"result\":") || !(result = result_value(r))) goto no;
    if (!LIT(r, ",\"duration_ms\":") || !whole(r, &dms)) goto no;
    if (LIT(r, ",\"token_usage\":") &&
        (!(usage = member_value(r)) || !json_is_object(usage) || !as_count(json_object_get(usage, "input_tokens")) ||
         !as_count(json_object_get(usage, "output_tokens"))))
        goto no;
    if (!LIT(r, ",\"timestamp\":") || !time_text(r, &ts, &ts_len) || !rfc3339_parse_ms(ts, ts_len, &when)) goto no;
    if (!LIT(r, ",\"duration_us\":") || !whole(r, &dus) || !LIT(r, "}") || r->pos != len) goto no;
    if (r->values > JSON_DEFAULT_MAX_VALUES) goto no; /* (each part checked it as it counted) */
    memset(out, 0, sizeof *out);
    out->seq = seq;
    out->parent_seq = parent;
    out->function = name_of(log, fn, fn_len, &out->function_shared);
    out->duration_ms = (double)dus / 1000;
    out->timestamp_ms = when;
    out->legacy = false;
    out->ours = true;
    out->args_tree = args.args_tree;
    out->args_text = args.args_text;
    out->args_len = args.args_len;
    out->args_at = args.args_at;
    out->result = result;
    out->token_usage = usage;
    return true;
no:
    json_free(args.args_tree);
    free(args.args_text);
    json_free(result);
    json_free(usage);
    return false;
}

bool call_record_read_line(const char *line, size_t len, call_record *out) { return fast_record(NULL, line, len, out); }

/* The columns a parse of the whole line gives (the args' text was parsed on its own). */
static void shift_columns(json_t *v, int by)
{
    v->col += by;
    if (v->type == JSON_ARRAY)
        for (size_t i = 0; i < v->u.array.len; i++) shift_columns(v->u.array.items[i], by);
    else if (v->type == JSON_OBJECT)
        for (size_t i = 0; i < v->u.object.len; i++) shift_columns(v->u.object.items[i].value, by);
}

const json_t *call_record_args(const call_record *r)
{
    json_t *tree = __atomic_load_n(&r->args_tree, __ATOMIC_ACQUIRE);
    if (tree || !r->args_text) return tree;
    size_t pos = 0, values = 0;
    tree = json_parse_at(r->args_text, r->args_len, &pos, 1, &record_limits, &values);
    if (!tree || pos != r->args_len) { /* cannot be: scan_plain accepts only what the parser does */
        json_free(tree);
        tree = json_null(); /* (an object's readers see none of its members) */
    } else if (r->args_at) {
        shift_columns(tree, (int)r->args_at);
    }
    json_t *none = NULL;
    if (!__atomic_compare_exchange_n(&((call_record *)r)->args_tree, &none, tree, false, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE)) {
        json_free(tree); /* another thread parsed them first: theirs stays */
        return none;
    }
    return tree;
}

bool call_record_args_equal(const call_record *r, const json_t *args)
{
    /* equal text is equal values; unequal text may still be equal values (another order of keys,
     * 1.0 for 1), which the trees decide */
    if (r->args_text && json_compact_is(args, r->args_text, r->args_len)) return true;
    return json_equal(call_record_args(r), args);
}

static int parse_record(calllog *log, const char *line, size_t len, int lineno, char **error)
{
    call_record fast;
    if (fast_record(log, line, len, &fast)) {
        call_record *r = push(log);
        *r = fast;
        r->order = log->len - 1;
        if (r->seq > log->max_seq) log->max_seq = r->seq;
        log->total_records++;
        log->total_bytes += len + 1;
        return 0;
    }
    json_limits lim = record_limits;
    json_error jerr;
    json_t *v = json_parse(line, len, &lim, &jerr);
    if (!v) {
        *error = xasprintf("line %d: not JSON (%d:%d: %s)", lineno, jerr.line, jerr.col, jerr.message);
        return -1;
    }
    const char *why = add_record(log, v, len + 1, true); /* v is ours: its values move into the record */
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
    if (x->seq != y->seq) return x->seq < y->seq ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order; /* stable: the first loaded comes first */
}

/* Records are appended when calls complete, so a nested run's records precede their container's
 * record in the file; replay walks them in seq order. A seq twice: when both records are ours (we
 * never write a seq twice) the log is damaged and refused; otherwise the first record of it wins
 * (the original's rule: the later copy is dropped). */
static int finish_load(calllog *log, const char *source, char **error)
{
    /* (items is NULL when empty) A log as we write it is in order but for nested runs' records:
     * a sort only when some record is out of place (qsort copied every record around anyway). */
    bool sorted = true;
    for (size_t i = 1; i < log->len && sorted; i++) sorted = by_seq(&log->items[i - 1], &log->items[i]) < 0;
    if (!sorted) qsort(log->items, log->len, sizeof(call_record), by_seq);
    size_t kept = 0;
    for (size_t i = 0; i < log->len; i++) { /* sorted: a later copy of a seq sits right after the first */
        if (kept && log->items[i].seq == log->items[kept - 1].seq) {
            if (log->items[i].ours && log->items[kept - 1].ours) {
                *error = xasprintf("%s: duplicate `seq` %llu", source, (unsigned long long)log->items[i].seq);
                /* [kept, i) hold moved-from copies: only [i, len) still own their fields */
                for (size_t k = i; k < log->len; k++) record_clear(&log->items[k]);
                log->len = kept;
                return -1;
            }
            record_clear(&log->items[i]);
            continue;
        }
        if (kept != i) log->items[kept] = log->items[i];
        kept++;
    }
    log->len = kept;
    log->n_sorted = log->len;
    return 0;
}

/* Parse the complete lines at the start of text[0..len); *used is how many bytes they take. */
static int parse_lines(calllog *log, const char *path, const char *text, size_t len, size_t *used, int *lineno,
                       char **error)
{
    size_t pos = 0;
    for (;;) {
        const char *nl = memchr(text + pos, '\n', len - pos);
        if (!nl) break;
        (*lineno)++;
        size_t n = (size_t)(nl - (text + pos));
        if (n > 0) {
            char *msg = NULL;
            if (parse_record(log, text + pos, n, *lineno, &msg) < 0) {
                *error = xasprintf("%s: %s", path, msg);
                free(msg);
                return -1;
            }
        } else {
            log->total_bytes++; /* an empty line: not a record, but bytes of the file */
        }
        pos += n + 1;
    }
    *used = pos;
    return 0;
}

int calllog_load(calllog *log, const char *path, char **error)
{
    *error = NULL;
    int fd = open_regular_file(path, O_RDONLY, 0, error);
    if (fd < 0) return -1;
    struct stat st;
    if (fstat(fd, &st) != 0 || (uint64_t)st.st_size > LOG_MAX_BYTES) {
        *error = xasprintf("%s is larger than the %zu-byte limit of a call log", path, LOG_MAX_BYTES);
        close(fd);
        return -1;
    }
    /* Read in chunks and parse the complete lines as they arrive: the whole text is never held. */
    buf b = {0};
    size_t total = 0;
    int lineno = 0, rc = 0;
    for (;;) {
        buf_reserve(&b, LOAD_CHUNK);
        ssize_t n = read(fd, b.data + b.len, LOAD_CHUNK);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            *error = xasprintf("cannot read %s: %s", path, strerror(errno));
            rc = -1;
            break;
        }
        if (n == 0) break; /* what is left has no newline: cut short by a crash, not a record */
        total += (size_t)n;
        if (total > LOG_MAX_BYTES) {
            *error = xasprintf("%s is larger than the %zu-byte limit of a call log", path, LOG_MAX_BYTES);
            rc = -1;
            break;
        }
        b.len += (size_t)n;
        size_t used = 0;
        /* a long line spans chunks: parse once one of them brings its newline (linear, not quadratic) */
        if (memchr(b.data + b.len - (size_t)n, '\n', (size_t)n) &&
            parse_lines(log, path, b.data, b.len, &used, &lineno, error) < 0) {
            rc = -1;
            break;
        }
        if (b.len - used > RECORD_MAX_BYTES) {
            *error = xasprintf("%s: line %d is longer than the %zu-byte limit of one record", path, lineno + 1,
                               RECORD_MAX_BYTES);
            rc = -1;
            break;
        }
        memmove(b.data, b.data + used, b.len - used);
        b.len -= used;
    }
    close(fd);
    buf_free(&b);
    if (rc < 0) return -1;
    return finish_load(log, path, error);
}

int calllog_load_records(calllog *log, const json_t *records, const char *source, char **error)
{
    if (!json_is_array(records)) {
        *error = xasprintf("%s: the call log must be an array of records", source);
        return -1;
    }
    for (size_t i = 0; i < records->u.array.len; i++) {
        const json_t *rec = records->u.array.items[i];
        size_t bytes = 0;
        char *line = json_is_object(rec) ? json_dump(rec, JSON_COMPACT, &bytes) : NULL;
        free(line);
        const char *why = add_record(log, rec, bytes + 1, false);
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

/* The length of fd's content up to and including its last newline (0 if it has none). */
static int complete_length(int fd, off_t size, off_t *out)
{
    char chunk[65536];
    off_t end = size;
    while (end > 0) {
        size_t n = end > (off_t)sizeof chunk ? sizeof chunk : (size_t)end;
        ssize_t r = pread(fd, chunk, n, end - (off_t)n);
        if (r < 0 && errno == EINTR) continue;
        if (r != (ssize_t)n) {
            if (r >= 0) errno = EIO;
            return -1;
        }
        for (size_t i = n; i-- > 0;)
            if (chunk[i] == '\n') {
                *out = end - (off_t)n + (off_t)i + 1;
                return 0;
            }
        end -= (off_t)n;
    }
    *out = 0;
    return 0;
}

/* A last line without its newline is a record cut short by a crash: load skipped it, so it is cut
 * off before anything is appended after it (a record glued to it would make the log unloadable). */
static int cut_torn_tail(int fd, const char *path, char **error)
{
    struct stat st;
    off_t keep = 0;
    char last = '\n';
    if (fstat(fd, &st) != 0) goto fail;
    if (st.st_size == 0) return 0;
    if (pread(fd, &last, 1, st.st_size - 1) != 1) goto fail;
    if (last == '\n') return 0;
    if (complete_length(fd, st.st_size, &keep) != 0 || ftruncate(fd, keep) != 0 || fsync(fd) != 0) goto fail;
    return 0;
fail:
    *error = xasprintf("cannot cut the torn last record off the call log %s: %s", path, strerror(errno));
    return -1;
}

/* On the file systems below an O_DSYNC write returns once its bytes are on disk, as a write and
 * an fdatasync did, in one system call instead of two. Elsewhere it may not be so (a network or
 * FUSE file system may ignore the flag, or refuse a sync with EINVAL after writing), and each
 * append keeps its own fdatasync. On one of them *fd is swapped for the same file opened O_DSYNC
 * (the flag cannot be set on an open descriptor); true then. */
static bool writes_through(int *fd, const char *path)
{
    static const unsigned long local[] = {EXT4_SUPER_MAGIC /* ext2/3/4 */, XFS_SUPER_MAGIC, BTRFS_SUPER_MAGIC,
                                          TMPFS_MAGIC, F2FS_SUPER_MAGIC};
    struct statfs fs;
    if (fstatfs(*fd, &fs) != 0) return false;
    bool known = false;
    for (size_t i = 0; i < sizeof local / sizeof *local; i++) known |= (unsigned long)fs.f_type == local[i];
    if (!known) return false;
    char *why = NULL;
    int again = open_regular_file(path, O_RDWR | O_APPEND | O_DSYNC, 0600, &why);
    free(why);
    struct stat a, b;
    if (again < 0 || fstat(*fd, &a) != 0 || fstat(again, &b) != 0 || a.st_dev != b.st_dev || a.st_ino != b.st_ino) {
        if (again >= 0) close(again);
        return false;
    }
    close(*fd);
    *fd = again;
    return true;
}

int calllog_persist_to(calllog *log, const char *path, const char *companion, char **error)
{
    free(log->companion);
    log->companion = companion ? xstrdup(companion) : NULL;
    char *why = NULL;
    int fd = open_regular_file(path, O_RDWR | O_CREAT | O_APPEND, 0600, &why);
    if (fd < 0) {
        *error = xasprintf("cannot write the call log: %s", why);
        free(why);
        return -1;
    }
    bool through = writes_through(&fd, path);
    if (log->fd >= 0) close(log->fd);
    log->fd = fd;
    log->sync_each = !through;
    free(log->path);
    log->path = xstrdup(path); /* the torn tail is cut right before the first append, not now: the
                                  run's pending state is checked against the log first, and a
                                  resume refused for a lost record leaves the file as it found it */
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

/* The cursor's next record (mutable: this file alone consumes records). */
static call_record *next_record(calllog *log, uint64_t parent_seq)
{
    if (log->mode == LOG_LIVE) return NULL;
    cursor *c = cursor_for(log, parent_seq);
    while (c->next < log->len &&
           (log->items[c->next].consumed || log->items[c->next].parent_seq != parent_seq))
        c->next++;
    return c->next < log->len ? &log->items[c->next] : NULL;
}

const call_record *calllog_peek(calllog *log, uint64_t parent_seq) { return next_record(log, parent_seq); }

size_t calllog_upcoming(calllog *log, uint64_t parent_seq, const call_record **out, size_t max)
{
    const call_record *first = next_record(log, parent_seq);
    size_t n = 0;
    for (size_t i = first ? (size_t)(first - log->items) : log->len; i < log->len && n < max; i++)
        if (!log->items[i].consumed && log->items[i].parent_seq == parent_seq) out[n++] = &log->items[i];
    return n;
}

const call_record *calllog_take_step(calllog *log, uint64_t parent_seq, const char *function, const json_t *name)
{
    call_record *next = next_record(log, parent_seq);
    if (!next || strcmp(next->function, function) != 0 || !json_equal(json_object_get(call_record_args(next), "name"), name))
        return NULL;
    next->consumed = true;
    return next;
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

void calllog_start_after(calllog *log, uint64_t seq)
{
    if (seq > log->max_seq) log->max_seq = seq;
}

void calllog_queue_seqs(calllog *log, const uint64_t *seqs, size_t n)
{
    log->queued = xrealloc(log->queued, (log->n_queued + n + 1) * sizeof(uint64_t));
    if (n) memcpy(log->queued + log->n_queued, seqs, n * sizeof(uint64_t));
    log->n_queued += n;
}

void calllog_expect_pause(calllog *log, const json_t *pending)
{
    json_free(log->pause);
    log->pause = json_copy(pending);
    const json_t *open = json_object_get(pending, "open_calls");
    uint64_t seqs[64];
    size_t n = 0;
    for (size_t i = 0; json_is_array(open) && i < open->u.array.len && n < 64; i++)
        if (open->u.array.items[i]->type == JSON_NUMBER) seqs[n++] = (uint64_t)json_number_value(open->u.array.items[i]);
    if (n) calllog_queue_seqs(log, seqs, n);
}

/* A replay-only call past the end of the log that the recording also made before it paused: a
 * nested agent that was still running (one of the open calls, in order) or the paused call itself. */
static lookup_outcome past_end_of_paused(calllog *log, uint64_t parent_seq, const char *function, bool nests,
                                         const json_t *args, uint64_t *seq)
{
    if (log->n_queued) {
        if (!nests) return LOOKUP_FAILED;
        *seq = calllog_reserve_seq(log);
        return LOOKUP_LIVE;
    }
    const json_t *p = log->pause;
    const char *fn = json_string_value(json_object_get(p, "function"));
    const json_t *ps = json_object_get(p, "parent_seq");
    uint64_t want_parent = ps && ps->type == JSON_NUMBER ? (uint64_t)json_number_value(ps) : 0;
    if (!fn || strcmp(fn, function) || !json_equal(json_object_get(p, "args"), args) || want_parent != parent_seq ||
        json_number_value(json_object_get(p, "seq")) != (double)(log->max_seq + 1))
        return LOOKUP_FAILED;
    *seq = calllog_reserve_seq(log);
    return LOOKUP_PAUSED;
}

lookup_outcome calllog_lookup(calllog *log, uint64_t parent_seq, const char *function, bool nests,
                              const json_t *args, const call_record **rec, uint64_t *seq, char **error)
{
    return calllog_lookup_match(log, parent_seq, function, nests, args, NULL, NULL, rec, seq, error);
}

lookup_outcome calllog_lookup_match(calllog *log, uint64_t parent_seq, const char *function, bool nests,
                                    const json_t *args, calllog_match_fn *match, void *ctx,
                                    const call_record **rec, uint64_t *seq, char **error)
{
    *rec = NULL;
    call_record *next = next_record(log, parent_seq);
    if (next) {
        if (strcmp(next->function, function) == 0 && (match ? match(next, args, ctx) : call_record_args_equal(next, args))) {
            next->consumed = true;
            *rec = next;
            return LOOKUP_REPLAYED;
        }
        char *want = excerpt_json(call_record_args(next)), *got = excerpt_json(args);
        *seq = next->seq; /* where it diverged (host.c keeps it: runner_outcome.diverged_at) */
        *error = xasprintf("divergence at seq %llu: the log has `%s` %s, but the agent called `%s` %s",
                           (unsigned long long)next->seq, next->function, want, function, got);
        free(want);
        free(got);
        return LOOKUP_FAILED;
    }
    char *full = cap_reached(log);
    if (full) {
        *error = full;
        return LOOKUP_FAILED;
    }
    if (log->mode == LOG_REPLAY_ONLY && log->pause) {
        lookup_outcome o = past_end_of_paused(log, parent_seq, function, nests, args, seq);
        if (o != LOOKUP_FAILED) return o;
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
    json_object_set(o, "args", json_copy(call_record_args(r)));
    json_object_set(o, "result", r->result ? json_copy(r->result) : json_null());
    double ms = r->duration_ms >= 0 && r->duration_ms < 1e15 ? r->duration_ms : 0;
    json_object_set(o, "duration_ms", json_number(floor(ms)));
    if (r->token_usage) json_object_set(o, "token_usage", json_copy(r->token_usage));
    char when[RFC3339_MAX];
    rfc3339_format_ms(r->timestamp_ms, when);
    json_object_set(o, "timestamp", json_string(when));
    if (r->error) json_object_set(o, "error", json_string(r->error));
    /* ours beyond the original's: the duration to the microsecond, and the op's own keys */
    json_object_set(o, "duration_us", json_number(floor(ms * 1000)));
    for (size_t i = 0; json_is_object(r->extra) && i < r->extra->u.object.len; i++) {
        const json_member *m = &r->extra->u.object.items[i];
        if (!known_key(m->key) && !json_object_get(o, m->key)) json_object_set(o, m->key, json_copy(m->value));
    }
    return o;
}

/* The compact text of call_record_to_json(r), written straight from the record (no tree built,
 * no value copied): what append writes for every call. false (b untouched) for a record whose
 * `extra` has a key with a NUL byte in it, which the tree's rules rename; json_dump of the tree
 * then writes it. The unit test calllog_record_line_matches_the_tree holds the two equal. */
static bool record_line(const call_record *r, buf *b)
{
    for (size_t i = 0; json_is_object(r->extra) && i < r->extra->u.object.len; i++)
        if (strlen(r->extra->u.object.items[i].key) != r->extra->u.object.items[i].key_len) return false;
    char num[40];
    json_format_number((double)r->seq, num);
    buf_puts(b, "{\"seq\":");
    buf_puts(b, num);
    if (r->parent_seq) {
        json_format_number((double)r->parent_seq, num);
        buf_puts(b, ",\"parent_seq\":");
        buf_puts(b, num);
    }
    buf_puts(b, ",\"function\":");
    json_dump_string_into(b, r->function, strlen(r->function));
    buf_puts(b, ",\"args\":");
    json_dump_into(b, call_record_args(r), JSON_COMPACT);
    buf_puts(b, ",\"result\":");
    json_dump_into(b, r->result, JSON_COMPACT);
    double ms = r->duration_ms >= 0 && r->duration_ms < 1e15 ? r->duration_ms : 0;
    json_format_number(floor(ms), num);
    buf_puts(b, ",\"duration_ms\":");
    buf_puts(b, num);
    if (r->token_usage) {
        buf_puts(b, ",\"token_usage\":");
        json_dump_into(b, r->token_usage, JSON_COMPACT);
    }
    char when[RFC3339_MAX];
    rfc3339_format_ms(r->timestamp_ms, when);
    buf_puts(b, ",\"timestamp\":\"");
    buf_puts(b, when);
    buf_putc(b, '"');
    if (r->error) {
        buf_puts(b, ",\"error\":");
        json_dump_string_into(b, r->error, strlen(r->error));
    }
    json_format_number(floor(ms * 1000), num);
    buf_puts(b, ",\"duration_us\":");
    buf_puts(b, num);
    for (size_t i = 0; json_is_object(r->extra) && i < r->extra->u.object.len; i++) {
        const json_member *m = &r->extra->u.object.items[i];
        if (known_key(m->key)) continue;
        buf_putc(b, ',');
        json_dump_string_into(b, m->key, m->key_len);
        buf_putc(b, ':');
        json_dump_into(b, m->value, JSON_COMPACT);
    }
    buf_putc(b, '}');
    return true;
}

/* The record's line (no newline) appended to b: printed from the record, or through its tree when
 * record_line cannot print it (an extra key with a NUL). */
static void record_line_into(const call_record *r, buf *b)
{
    size_t start = b->len;
    if (record_line(r, b)) return;
    b->len = start;
    json_t *j = call_record_to_json(r);
    json_dump_into(b, j, JSON_COMPACT);
    json_free(j);
}

char *call_record_line(const call_record *r, size_t *len)
{
    buf b = {0};
    record_line_into(r, &b);
    *len = b.len;
    return buf_steal(&b);
}

static int sync_path(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
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

/* Append one line to the file, flushed to disk (its companion first, once). */
static int write_record(calllog *log, const char *line, size_t n, char **io_error)
{
    if (log->companion) {
        if (sync_path(log->companion) != 0 || sync_parent(log->companion) != 0) {
            *io_error = xasprintf("cannot flush %s to disk: %s", log->companion, strerror(errno));
            return -1;
        }
        free(log->companion);
        log->companion = NULL;
    }
    if (log->path) {
        if (cut_torn_tail(log->fd, log->path, io_error) != 0) return -1;
        free(log->path);
        log->path = NULL;
    }
    int rc = write_all(log->fd, line, n); /* O_DSYNC (writes_through): back from write, on disk */
    if (rc == 0 && log->sync_each && fdatasync(log->fd) != 0 && errno != EINVAL) rc = -1;
    if (rc != 0) {
        *io_error = xasprintf("cannot append to the call log: %s", strerror(errno));
        return -1;
    }
    return 0;
}

#define LINE_KEEP_BYTES ((size_t)64 << 10)
/* trace records wait for the next other record, or until this many bytes or milliseconds */
#define WAIT_MAX_BYTES ((size_t)64 << 10)
#define WAIT_MAX_MS 200

int calllog_flush(calllog *log, char **io_error)
{
    if (!log->waiting) return 0;
    size_t n = log->waiting;
    log->waiting = 0;
    return write_record(log, log->line.data, n, io_error);
}

static int append(calllog *log, bool keep, bool trace, uint64_t seq, uint64_t parent_seq, const char *function,
                  const json_t *args, const json_t *result, const char *error, double duration_ms,
                  int64_t timestamp_ms, const json_t *token_usage, const json_t *extra, char **io_error)
{
    /* the record as written: borrowed fields (view), copied only when the log keeps it */
    static json_t null_result = {.type = JSON_NULL};
    call_record view = {.seq = seq,
                        .parent_seq = parent_seq,
                        .function = (char *)function,
                        .args_tree = (json_t *)args,
                        .result = error ? NULL : result ? (json_t *)result : &null_result,
                        .error = (char *)error,
                        .duration_ms = duration_ms,
                        .timestamp_ms = timestamp_ms,
                        .token_usage = (json_t *)token_usage,
                        .extra = (json_t *)extra};
    if (keep) {
        call_record *r = push(log);
        *r = view;
        r->function = xstrdup(function);
        r->args_tree = json_copy(args);
        r->result = error ? NULL : result ? json_copy(result) : json_null();
        r->error = error ? xstrdup(error) : NULL;
        r->token_usage = token_usage ? json_copy(token_usage) : NULL;
        r->extra = extra ? json_copy(extra) : NULL;
        r->order = log->len - 1;
    }
    /* the tree only for a sink (it is handed one); the line straight from the record otherwise,
     * into the log's own buffer (no allocation per record once it has grown) */
    json_t *j = log->sink ? call_record_to_json(&view) : NULL;
    buf *b = &log->line;
    size_t start = log->waiting; /* a log with a sink never has records waiting */
    b->len = start;
    if (j) json_dump_into(b, j, JSON_COMPACT);
    else record_line_into(&view, b);
    size_t n = b->len - start;
    int rc = 0;
    if (n + 1 > RECORD_MAX_BYTES) {
        *io_error = xasprintf("cannot record `%s`: its record takes %zu bytes, over the %zu-byte limit of one record "
                              "(a log holding it could not be loaded again); pass and return less data per call",
                              function, n + 1, RECORD_MAX_BYTES);
        rc = -1;
        if (keep) record_clear(&log->items[--log->len]); /* not written: not in the log */
        keep = false;
        b->len = start;
    } else {
        if (seq > log->max_seq) log->max_seq = seq;
        buf_putc(b, '\n');
        n = b->len - start;
        if (log->fd >= 0) {
            /* a trace record waits (calllog_append_trace); any other goes out with those before it */
            if (!start) log->waiting_since_ms = timestamp_ms;
            log->waiting = b->len;
            if (!trace || log->sink || log->waiting >= WAIT_MAX_BYTES || timestamp_ms - log->waiting_since_ms >= WAIT_MAX_MS)
                rc = calllog_flush(log, io_error);
        }
        if (rc == 0 && log->sink) rc = log->sink(log->sink_ctx, j, io_error);
        log->total_records++;
        log->total_bytes += n;
    }
    if (b->cap > LINE_KEEP_BYTES && !log->waiting) buf_free(b); /* a large record's buffer is not kept */
    json_free(j);
    return rc;
}

int calllog_append(calllog *log, uint64_t seq, uint64_t parent_seq, const char *function, const json_t *args,
                   const json_t *result, const char *error, double duration_ms, int64_t timestamp_ms,
                   char **io_error)
{
    return append(log, false, false, seq, parent_seq, function, args, result, error, duration_ms, timestamp_ms, NULL,
                  NULL, io_error);
}

int calllog_append_full(calllog *log, uint64_t seq, uint64_t parent_seq, const char *function, const json_t *args,
                        const json_t *result, const char *error, double duration_ms, int64_t timestamp_ms,
                        const json_t *token_usage, const json_t *extra, char **io_error)
{
    return append(log, false, false, seq, parent_seq, function, args, result, error, duration_ms, timestamp_ms,
                  token_usage, extra, io_error);
}

int calllog_append_trace(calllog *log, uint64_t seq, uint64_t parent_seq, const char *function, const json_t *args,
                         const json_t *result, const char *error, double duration_ms, int64_t timestamp_ms,
                         const json_t *token_usage, const json_t *extra, char **io_error)
{
    return append(log, false, true, seq, parent_seq, function, args, result, error, duration_ms, timestamp_ms,
                  token_usage, extra, io_error);
}

int calllog_append_for_replay(calllog *log, uint64_t seq, uint64_t parent_seq, const char *function,
                              const json_t *args, const json_t *result, int64_t timestamp_ms, char **io_error)
{
    return append(log, true, false, seq, parent_seq, function, args, result, NULL, 0, timestamp_ms, NULL, NULL, io_error);
}

/* ---------- pending state ---------- */

const call_record *calllog_find_seq(const calllog *log, uint64_t seq)
{
    for (size_t i = log->n_sorted; i < log->len; i++) /* past the sorted loaded ones: a resume's answer */
        if (log->items[i].seq == seq) return &log->items[i];
    size_t lo = 0, hi = log->n_sorted;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (log->items[mid].seq == seq) return &log->items[mid];
        if (log->items[mid].seq < seq) lo = mid + 1;
        else hi = mid;
    }
    return NULL;
}

bool calllog_has_seq(const calllog *log, uint64_t seq) { return calllog_find_seq(log, seq) != NULL; }

int calllog_check_pending(const calllog *log, uint64_t seq, uint64_t parent_seq, const uint64_t *open, size_t n_open,
                          char **error)
{
    const char *fix = "the run folder was changed since the run paused; restore run.json from a backup, or start a new run";
    if (seq <= log->max_seq || calllog_has_seq(log, seq)) {
        *error = xasprintf("the run's pending call is not consistent with its call log: its seq %llu is not newer than "
                           "the log's last record (seq %llu); %s",
                           (unsigned long long)seq, (unsigned long long)log->max_seq, fix);
        return -1;
    }
    for (size_t i = 0; i < n_open; i++) {
        const char *why = NULL;
        if (open[i] >= seq) why = "is not older than the pending call";
        else if (i && open[i] <= open[i - 1]) why = "is out of order (open calls go outermost first, seqs growing)";
        else if (calllog_has_seq(log, open[i])) why = "already has a record (it completed; it is not open)";
        if (why) {
            *error = xasprintf("the run's pending call is not consistent with its call log: open call %llu %s; %s",
                               (unsigned long long)open[i], why, fix);
            return -1;
        }
    }
    if (parent_seq != (n_open ? open[n_open - 1] : 0)) {
        *error = xasprintf("the run's pending call is not consistent with its call log: its parent_seq %llu is not "
                           "the innermost open call; %s",
                           (unsigned long long)parent_seq, fix);
        return -1;
    }
    for (size_t i = 0; i < log->n_sorted; i++) {
        uint64_t p = log->items[i].parent_seq;
        if (!p || calllog_has_seq(log, p)) continue;
        bool open_call = false;
        for (size_t k = 0; k < n_open && !open_call; k++) open_call = open[k] == p;
        if (!open_call) {
            *error = xasprintf("the run's pending call is not consistent with its call log: records of call %llu "
                               "are in the log, but that call neither completed nor is open; %s",
                               (unsigned long long)p, fix);
            return -1;
        }
    }
    /* every call before the pending one completed (a record) or is still open: a gap is a record
     * lost from the log (a torn last line, an edit), and an answer appended after it would leave a
     * log that no replay can follow */
    uint64_t missing = 0; /* found within len + n_open + 1 steps: no more seqs than that are accounted for */
    for (uint64_t s = 1; s < seq && !missing; s++) {
        bool open_call = calllog_has_seq(log, s);
        for (size_t k = 0; k < n_open && !open_call; k++) open_call = open[k] == s;
        if (!open_call) missing = s;
    }
    if (missing) {
        *error = xasprintf("the run's pending call (seq %llu) is not consistent with its call log: the log has no "
                           "complete record of call %llu, which came before it (records were lost since the run "
                           "paused, or the last line is cut short); restore records.jsonl from a backup, or start "
                           "a new run",
                           (unsigned long long)seq, (unsigned long long)missing);
        return -1;
    }
    return 0;
}

int calllog_answer_pending(calllog *log, uint64_t seq, uint64_t parent_seq, const uint64_t *open, size_t n_open,
                           const char *function, const json_t *args, const json_t *answer, int64_t timestamp_ms,
                           char **error)
{
    /* pending state is a file anyone could have edited: it must agree with the log */
    if (calllog_check_pending(log, seq, parent_seq, open, n_open, error) < 0) return -1;
    calllog_queue_seqs(log, open, n_open);
    /* the answer is replayed like any record: it is kept, unconsumed */
    return calllog_append_for_replay(log, seq, parent_seq, function, args, answer, timestamp_ms, error);
}
