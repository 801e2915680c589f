/* fuzz_runlog.c — libFuzzer target for the reader of a run's call log behind `chidori runs`
 * (src/cli/runlog.c) on arbitrary bytes.
 *
 * The bytes are fed as records.jsonl is while --follow polls it: in two chunks split where the
 * first byte says, the unconsumed rest carried over, then finished as at end of file. Checked
 * (abort on violation): the same rows and token totals come out as from one whole feed; every row
 * has a seq > 0 and a function; the token totals are the sums of the rows' tokens; the warnings
 * are whole lines; nothing leaks (ASan).
 *
 * Build and run: make VARIANT=fuzz build/fuzz/fuzz_runlog && build/fuzz/fuzz_runlog
 */
#include "cli/runlog.h"
#include "util/buf.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void whole(runlog *log, const char *data, size_t len)
{
    size_t line_no = 0;
    size_t used = runlog_feed(log, data, len, &line_no);
    runlog_finish(log, data + used, len - used, line_no);
}

static void in_two(runlog *log, const char *data, size_t len, size_t cut)
{
    size_t line_no = 0;
    buf pending = {0};
    buf_append(&pending, data, cut);
    size_t used = runlog_feed(log, pending.data, pending.len, &line_no);
    buf rest = {0};
    buf_append(&rest, pending.data + used, pending.len - used);
    buf_append(&rest, data + cut, len - cut);
    used = runlog_feed(log, rest.data ? rest.data : "", rest.len, &line_no);
    runlog_finish(log, rest.data + used, rest.len - used, line_no);
    buf_free(&pending);
    buf_free(&rest);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > (1 << 20)) return 0;
    const char *text = (const char *)data + 1;
    size_t len = size - 1, cut = len ? data[0] % (len + 1) : 0;
    runlog a = {0}, b = {0};
    whole(&a, text, len);
    in_two(&b, text, len, cut);
    if (a.len != b.len || a.tokens_in != b.tokens_in || a.tokens_out != b.tokens_out || a.torn_tail != b.torn_tail)
        abort();
    uint64_t in = 0, out = 0;
    for (size_t i = 0; i < a.len; i++) {
        const runlog_row *r = &a.rows[i], *s = &b.rows[i];
        if (!r->seq || !r->function || r->seq != s->seq || strcmp(r->function, s->function)) abort();
        if (r->has_tokens) in += r->tokens_in, out += r->tokens_out;
    }
    if (in != a.tokens_in || out != a.tokens_out) abort();
    if (a.warnings.len && a.warnings.data[a.warnings.len - 1] != '\n') abort();
    runlog_clear(&a);
    runlog_clear(&b);
    return 0;
}
