/* runlog.c — see runlog.h. What a row's target is, per function:
 *   tool: the tool's name          http: METHOD host           prompt: the model
 *   workspace / memory / fs: action and path or key            call_agent: the agent's path
 *   template: the template (first line)  input: its prompt     log / mark / step: message, label, name
 */
#define _GNU_SOURCE
#include "cli/runlog.h"
#include "host/calllog.h"
#include "util/files.h"
#include "util/json.h"
#include "util/rfc3339.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TARGET_MAX 120 /* bytes of a target kept for display */

static const char *str(const json_t *o, const char *key) { return json_string_value(json_object_get(o, key)); }

static bool count_of(const json_t *v, uint64_t *out)
{
    if (!v || v->type != JSON_NUMBER || !(v->u.number >= 0 && v->u.number <= 9e15)) return false;
    *out = (uint64_t)v->u.number;
    return true;
}

/* "scheme://user@host:port/path" → host:port */
static char *url_host(const char *url)
{
    const char *p = strstr(url, "://");
    p = p ? p + 3 : url;
    size_t n = strcspn(p, "/?#");
    const char *at = memchr(p, '@', n);
    if (at) n -= (size_t)(at + 1 - p), p = at + 1;
    return xstrndup(p, n);
}

static char *clip(char *s)
{
    if (!s) return NULL;
    size_t n = strcspn(s, "\n");
    if (n > TARGET_MAX) {
        n = TARGET_MAX;
        while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80) n--; /* not inside a UTF-8 sequence */
    }
    if (s[n]) {
        s[n] = '\0';
        char *t = xasprintf("%s…", s);
        free(s);
        return t;
    }
    return s;
}

static char *two(const char *a, const char *b)
{
    if (a && b) return xasprintf("%s %s", a, b);
    return a ? xstrdup(a) : b ? xstrdup(b) : NULL;
}

static char *target_of(const char *fn, const json_t *args, const json_t *result)
{
    if (!json_is_object(args)) return NULL;
    if (!strcmp(fn, "tool")) return str(args, "name") ? xstrdup(str(args, "name")) : NULL;
    if (!strcmp(fn, "http")) {
        const char *url = str(args, "url");
        if (!url) return NULL;
        char *host = url_host(url), *t = two(str(args, "method") ? str(args, "method") : "GET", host);
        free(host);
        return t;
    }
    if (!strcmp(fn, "prompt")) {
        const char *model = json_is_object(result) ? str(result, "model") : NULL;
        return model ? xstrdup(model) : str(args, "model") ? xstrdup(str(args, "model")) : NULL;
    }
    if (!strcmp(fn, "workspace") || !strcmp(fn, "memory") || !strcmp(fn, "fs")) {
        const char *action = str(args, "action") ? str(args, "action") : str(args, "op");
        const json_t *inner = json_object_get(args, "args"); /* a workspace record: {action, args: {path …}} */
        const char *what = str(args, "path")               ? str(args, "path")
                           : json_is_object(inner) && str(inner, "path") ? str(inner, "path")
                                                                       : str(args, "key");
        return two(action, what);
    }
    if (!strcmp(fn, "call_agent")) return str(args, "path") ? xstrdup(str(args, "path")) : NULL;
    if (!strcmp(fn, "template")) return str(args, "template") ? xstrdup(str(args, "template")) : NULL;
    if (!strcmp(fn, "input")) return str(args, "prompt") ? xstrdup(str(args, "prompt")) : NULL;
    const char *keys[] = {"name", "label", "message", "path", "url"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (str(args, keys[i])) return xstrdup(str(args, keys[i]));
    return NULL;
}

char *runlog_target(const char *fn, const json_t *args, const json_t *result)
{
    return clip(target_of(fn, args, result));
}

int runlog_parse_line(const char *line, size_t len, runlog_row *row, const char **why)
{
    memset(row, 0, sizeof *row);
    if (len > CALLLOG_RECORD_MAX_BYTES) {
        *why = "longer than a call record can be";
        return -1;
    }
    json_error jerr;
    json_limits lim = {(size_t)CALLLOG_RECORD_MAX_BYTES, JSON_DEFAULT_MAX_DEPTH, 0};
    json_t *o = json_parse(line, len, &lim, &jerr);
    const json_t *fn = json_object_get(o, "function");
    uint64_t seq = 0;
    if (!o) *why = "not valid JSON";
    else if (!json_is_object(o)) *why = "not a JSON object";
    else if (!count_of(json_object_get(o, "seq"), &seq) || seq == 0) *why = "`seq` is missing or not a positive whole number";
    else if (!json_is_string(fn) || !fn->u.string.len) *why = "`function` is missing";
    if (!o || !json_is_object(o) || !seq || !json_is_string(fn) || !fn->u.string.len) {
        json_free(o);
        return -1;
    }
    row->seq = seq;
    count_of(json_object_get(o, "parent_seq"), &row->parent_seq);
    row->function = xstrdup(fn->u.string.bytes);
    /* both shapes (docs/durable-runs.md): the original's (RFC 3339 timestamp, whole duration_ms,
     * token_usage, the reply's other keys under `response`) and our previous one (milliseconds,
     * fractional duration_ms, the whole reply as the prompt's result) */
    const json_t *args = json_object_get(o, "args"), *result = json_object_get(o, "result");
    const json_t *reply = json_is_object(json_object_get(o, "response")) ? json_object_get(o, "response") : result;
    row->target = clip(target_of(row->function, args, reply));
    const json_t *d = json_object_get(o, "duration_ms"), *dus = json_object_get(o, "duration_us");
    row->duration_ms = d && d->type == JSON_NUMBER && d->u.number >= 0 && d->u.number < 1e12 ? d->u.number : -1;
    if (dus && dus->type == JSON_NUMBER && dus->u.number >= 0 && dus->u.number < 1e15) row->duration_ms = dus->u.number / 1000;
    uint64_t ts = 0;
    const json_t *when = json_object_get(o, "timestamp");
    int64_t ms = 0;
    if (json_is_string(when)) row->timestamp_ms = rfc3339_parse_ms(when->u.string.bytes, when->u.string.len, &ms) ? ms : 0;
    else row->timestamp_ms = count_of(when, &ts) ? (int64_t)ts : 0;
    const json_t *token_usage = json_object_get(o, "token_usage");
    if (!strcmp(row->function, "prompt") && json_is_object(token_usage)) {
        bool a = count_of(json_object_get(token_usage, "input_tokens"), &row->tokens_in);
        bool b = count_of(json_object_get(token_usage, "output_tokens"), &row->tokens_out);
        count_of(json_object_get(token_usage, "cache_creation_tokens"), &row->cache_creation);
        count_of(json_object_get(token_usage, "cache_read_tokens"), &row->cache_read);
        row->has_tokens = a || b;
    } else if (!strcmp(row->function, "prompt") && json_is_object(result)) {
        const json_t *usage = json_object_get(result, "usage");
        bool a = count_of(json_object_get(usage, "inputTokens"), &row->tokens_in);
        bool b = count_of(json_object_get(usage, "outputTokens"), &row->tokens_out);
        count_of(json_object_get(usage, "cacheCreationTokens"), &row->cache_creation);
        count_of(json_object_get(usage, "cacheReadTokens"), &row->cache_read);
        row->has_tokens = a || b;
    }
    if (!strcmp(row->function, "prompt")) {
        const char *model = json_is_object(reply) ? str(reply, "model") : NULL;
        if (!model) model = str(args, "model");
        if (model) row->model = xstrdup(model);
    }
    const json_t *err = json_object_get(o, "error");
    if (err && err->type != JSON_NULL) {
        if (json_is_string(err)) row->error = clip(xstrdup(err->u.string.bytes));
        else if (json_is_object(err) && str(err, "message")) row->error = clip(xstrdup(str(err, "message")));
        else row->error = xstrdup("(an error that is not text)");
    }
    json_free(o);
    return 0;
}

void runlog_row_clear(runlog_row *row)
{
    free(row->function);
    free(row->target);
    free(row->model);
    free(row->error);
    memset(row, 0, sizeof *row);
}

static void add_row(runlog *log, runlog_row *row)
{
    if (log->len == log->cap) {
        log->cap = log->cap ? log->cap * 2 : 64;
        log->rows = xrealloc(log->rows, log->cap * sizeof *log->rows);
    }
    log->rows[log->len++] = *row;
    if (row->has_tokens) log->tokens_in += row->tokens_in, log->tokens_out += row->tokens_out;
    if (row->timestamp_ms > 0) {
        int64_t end = row->timestamp_ms + (row->duration_ms > 0 ? (int64_t)row->duration_ms : 0);
        if (end > log->last_end_ms) log->last_end_ms = end;
    }
}

static void one_line(runlog *log, const char *line, size_t len, size_t line_no)
{
    if (len == 0) return;
    runlog_row row;
    const char *why = NULL;
    if (runlog_parse_line(line, len, &row, &why) == 0) {
        add_row(log, &row);
        return;
    }
    log->bad_lines++;
    if (log->bad_lines <= 5)
        buf_printf(&log->warnings, "records.jsonl line %zu is not a call record (%s): skipped\n", line_no, why);
    else if (log->bad_lines == 6)
        buf_puts(&log->warnings, "records.jsonl: more lines that are not call records: skipped\n");
}

size_t runlog_feed(runlog *log, const char *data, size_t len, size_t *line_no)
{
    size_t done = 0;
    for (;;) {
        const char *nl = memchr(data + done, '\n', len - done);
        if (!nl) break;
        size_t n = (size_t)(nl - (data + done));
        ++*line_no;
        one_line(log, data + done, n, *line_no);
        done += n + 1;
    }
    return done;
}

void runlog_finish(runlog *log, const char *rest, size_t len, size_t line_no)
{
    if (len == 0) return;
    runlog_row row;
    const char *why = NULL;
    if (runlog_parse_line(rest, len, &row, &why) == 0) { /* whole, only its newline missing */
        add_row(log, &row);
        return;
    }
    log->torn_tail = true;
    buf_printf(&log->warnings,
               "records.jsonl line %zu is cut short (%zu bytes without a newline: the run was stopped while "
               "writing it, or is writing it now): ignored\n", line_no + 1, len);
}

int runlog_read(const char *path, runlog *log, char **error)
{
    if (access(path, F_OK) != 0 && errno == ENOENT) return 0; /* no effects yet */
    int fd = open_regular_file(path, O_RDONLY, 0, error);
    if (fd < 0) return -1;
    /* streamed: a line at a time in memory (at most a record's cap), whatever the file's size */
    buf line = {0};
    char chunk[65536];
    size_t line_no = 0;
    uint64_t total = 0;
    bool skipping = false; /* inside a line longer than a record can be */
    ssize_t got;
    while ((got = read(fd, chunk, sizeof chunk)) != 0) {
        if (got < 0) {
            if (errno == EINTR) continue;
            buf_printf(&log->warnings, "records.jsonl cannot be read past byte %llu: %s\n", (unsigned long long)total,
                       strerror(errno));
            break;
        }
        total += (uint64_t)got;
        const char *p = chunk;
        size_t n = (size_t)got;
        if (skipping) {
            const char *nl = memchr(p, '\n', n);
            if (!nl) continue;
            skipping = false;
            n -= (size_t)(nl + 1 - p), p = nl + 1;
        }
        buf_append(&line, p, n);
        size_t used = runlog_feed(log, line.data, line.len, &line_no);
        memmove(line.data, line.data + used, line.len - used);
        line.len -= used;
        line.data[line.len] = '\0';
        if (line.len > CALLLOG_RECORD_MAX_BYTES) {
            line_no++;
            log->bad_lines++;
            buf_printf(&log->warnings, "records.jsonl line %zu is longer than a call record can be: skipped\n", line_no);
            line.len = 0;
            skipping = true;
        }
        if (total > CALLLOG_LOAD_MAX_BYTES) {
            buf_printf(&log->warnings, "records.jsonl is larger than a call log can be (%llu bytes): read up to there\n",
                       (unsigned long long)CALLLOG_LOAD_MAX_BYTES);
            line.len = 0;
            break;
        }
    }
    close(fd);
    if (!skipping) runlog_finish(log, line.data ? line.data : "", line.len, line_no);
    buf_free(&line);
    return 0;
}

void runlog_clear(runlog *log)
{
    for (size_t i = 0; i < log->len; i++) runlog_row_clear(&log->rows[i]);
    free(log->rows);
    buf_free(&log->warnings);
    memset(log, 0, sizeof *log);
}
