/* fuzz_calllog.c — loading a records.jsonl and appending to it. The input is the file's bytes.
 * Properties: no crash, hang or leak; a log that loads holds its records in seq order without
 * duplicates (the first of a seq wins: it may count more lines than it holds); both record shapes
 * load, and the prompt and tool record forms (record_form.h) read any loaded record back and
 * compare it with its own args without crashing; its first append cuts exactly what follows its last newline (never a
 * complete line); after one append the file loads again with one more record, the new one on a
 * line of its own; the pending-call check answers without crashing for seqs around the log's.
 * And every line the loader's fast reader takes (call_record_read_line) gives the record the
 * general path (json_parse and the record's checks) gives: the same fields, values of the same
 * bytes, in the same order, marked at the same line:col; its args compare equal to their own value,
 * and json_compact_is says yes only to the dump's very text. */
#define _GNU_SOURCE
#include "host/calllog.h"
#include "host/record_form.h"
#include "util/buf.h"
#include "util/files.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../json_same_tree.h"

static char *path;

static void write_bytes(const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "w");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0) abort();
}


/* The fast reader against the general path, on one line. */
static void check_fast_reader(const char *line, size_t len)
{
    call_record fast;
    if (!call_record_read_line(line, len, &fast)) return;
    json_limits lim = {CALLLOG_RECORD_MAX_BYTES, JSON_DEFAULT_MAX_DEPTH, 0};
    json_error jerr;
    json_t *v = json_parse(line, len, &lim, &jerr);
    call_record slow;
    if (!v || call_record_parse(v, &slow) != NULL) abort(); /* the fast reader took a line the loader refuses */
    if (fast.seq != slow.seq || fast.parent_seq != slow.parent_seq || strcmp(fast.function, slow.function) ||
        fast.error || slow.error || memcmp(&fast.duration_ms, &slow.duration_ms, sizeof(double)) ||
        fast.timestamp_ms != slow.timestamp_ms || fast.legacy != slow.legacy || fast.ours != slow.ours ||
        fast.extra || slow.extra || !json_same_tree(call_record_args(&fast), call_record_args(&slow)) || !json_same_tree(fast.result, slow.result) ||
        !json_same_tree(fast.token_usage, slow.token_usage))
        abort();
    /* replay's comparison: a record's args equal their own value, and text that json_compact_is
     * accepts is exactly what the dump writes */
    const json_t *args = call_record_args(&slow);
    if (!call_record_args_equal(&fast, args)) abort();
    if (fast.args_text && json_compact_is(args, fast.args_text, fast.args_len)) {
        size_t n;
        char *dump = json_dump(args, JSON_COMPACT, &n);
        if (n != fast.args_len || memcmp(dump, fast.args_text, n)) abort();
        free(dump);
    }
    call_record_clear(&fast);
    call_record_clear(&slow);
    json_free(v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    for (size_t at = 0; at < size;) {
        const uint8_t *nl = memchr(data + at, '\n', size - at);
        size_t n = nl ? (size_t)(nl - (data + at)) : size - at;
        check_fast_reader((const char *)data + at, n);
        at += n + 1;
    }
    if (!path) {
        /* tmpfs when there is one: every append is flushed (fdatasync), which is free there */
        const char *tmp = getenv("TMPDIR");
        if (!tmp || !*tmp) tmp = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
        path = xasprintf("%s/chidori-fuzz-calllog-%d.jsonl", tmp, (int)getpid());
    }
    write_bytes(data, size);
    calllog *log = calllog_new();
    char *error = NULL;
    if (calllog_load(log, path, &error) != 0) {
        if (!error || !*error) abort();
        free(error);
        calllog_free(log);
        return 0;
    }
    size_t n = calllog_held(log);
    if (calllog_count(log) < n) abort();
    for (size_t i = 0; i < n; i++) { /* the record forms read what a foreign file holds */
        const call_record *r = calllog_get(log, i);
        if (r->legacy || r->error) continue;
        const record_form *form = !strcmp(r->function, "prompt") ? &prompt_record_form
                                  : !strcmp(r->function, "tool") ? &tool_record_form : NULL;
        if (!form) continue;
        json_free(form->decode(r));
        (void)form->matches(r, call_record_args(r));
        const json_t *request = json_object_get(call_record_args(r), "request");
        if (json_is_object(request)) (void)form->matches(r, request);
    }
    for (size_t i = 1; i < n; i++)
        if (calllog_get(log, i - 1)->seq >= calllog_get(log, i)->seq) abort();
    for (size_t i = 0; i < n; i++)
        if (!calllog_has_seq(log, calllog_get(log, i)->seq)) abort();
    uint64_t last = n ? calllog_get(log, n - 1)->seq : 0, open[2] = {last, last + 1};
    for (uint64_t s = last; s < last + 3; s++) {
        for (size_t k = 0; k < 3; k++) {
            if (calllog_check_pending(log, s, k ? open[k - 1] : 0, open, k, &error) != 0) {
                if (!error) abort();
                free(error), error = NULL;
            }
        }
    }
    if (last >= 9007199254740990ull) { /* no seq after it fits a record */
        calllog_free(log);
        return 0;
    }
    size_t keep = size;
    while (keep && data[keep - 1] != '\n') keep--;
    if (calllog_persist_to(log, path, NULL, &error) != 0) abort();
    size_t len;
    char *now = read_file_capped(path, size + 1, &len, &error);
    if (!now || len != size || memcmp(now, data, size) != 0) abort(); /* nothing is cut before an append */
    free(now);
    json_t *args = json_object();
    if (calllog_append(log, last + 1, 0, "mark", args, NULL, NULL, 0, 0, &error) != 0) abort();
    json_free(args);
    now = read_file_capped(path, CALLLOG_LOAD_MAX_BYTES, &len, &error);
    if (!now || len <= keep || memcmp(now, data, keep) != 0 || now[len - 1] != '\n' || memchr(now + keep, '\n', len - keep) != now + len - 1)
        abort(); /* only the torn tail was cut, then the one new line written */
    free(now);
    calllog_free(log);
    log = calllog_new();
    if (calllog_load(log, path, &error) != 0 || calllog_held(log) != n + 1 || !calllog_has_seq(log, last + 1)) abort();
    calllog_free(log);
    return 0;
}
