/* fuzz_calllog.c — loading a records.jsonl and appending to it. The input is the file's bytes.
 * Properties: no crash, hang or leak; a log that loads holds its records in seq order without
 * duplicates (the first of a seq wins: it may count more lines than it holds); both record shapes
 * load, and the prompt and tool record forms (record_form.h) read any loaded record back and
 * compare it with its own args without crashing; its first append cuts exactly what follows its last newline (never a
 * complete line); after one append the file loads again with one more record, the new one on a
 * line of its own; the pending-call check answers without crashing for seqs around the log's. */
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

static char *path;

static void write_bytes(const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "w");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
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
        (void)form->matches(r, r->args);
        const json_t *request = json_object_get(r->args, "request");
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
