/* fuzz_termtext.c — the sanitizer of agent text for the operator (src/util/termtext.c) on
 * arbitrary bytes, both at a line start and after a prefix.
 *
 * Properties (abort on violation): the output is valid UTF-8; it has no C0 control but newline,
 * tab and a CR right before a newline, no DEL, no C1 control and no bidi embedding, override or
 * isolate control; every output line that looks like chidori's own starts with GUEST_LINE_MARK
 * (all lines at a line start, the lines after the first otherwise); a second pass changes
 * nothing; the newlines are the input's. term_json_escape (a run's output JSON): when the input
 * is JSON, the output is JSON of the same value, with no C1 or bidi control left raw; on any
 * bytes it changes only those code points. */
#include "util/json.h"
#include "util/termtext.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void check(const char *in, size_t n, bool at_start)
{
    buf b = {0};
    term_sanitize(&b, in, n, at_start);
    const unsigned char *o = (const unsigned char *)(b.data ? b.data : "");
    size_t len = b.len, newlines_in = 0, newlines_out = 0;
    for (size_t i = 0; i < n; i++) newlines_in += in[i] == '\n';
    for (size_t i = 0; i < len;) {
        unsigned char c = o[i];
        if (c == '\n') newlines_out++;
        if ((c < 0x20 && c != '\n' && c != '\t' && !(c == '\r' && i + 1 < len && o[i + 1] == '\n')) || c == 0x7f)
            abort();
        if (c < 0x80) {
            i++;
            continue;
        }
        size_t k = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
        if (c < 0xc2 || c > 0xf4 || i + k > len) abort();
        uint32_t v = c & (0x7f >> k);
        for (size_t j = 1; j < k; j++) {
            if ((o[i + j] & 0xc0) != 0x80) abort();
            v = v << 6 | (o[i + j] & 0x3f);
        }
        if ((v >= 0x80 && v <= 0x9f) || (v >= 0x202a && v <= 0x202e) || (v >= 0x2066 && v <= 0x2069)) abort();
        if ((v >= 0xd800 && v <= 0xdfff) || v > 0x10ffff || (k == 3 && v < 0x800) || (k == 4 && v < 0x10000)) abort();
        i += k;
    }
    if (newlines_in != newlines_out) abort();
    /* marked lines */
    size_t line = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i < len && o[i] != '\n') continue;
        if (line > 0 || at_start) {
            const unsigned char *s = o + line;
            size_t l = i - line;
            while (l && (*s == ' ' || *s == '\t')) s++, l--;
            if ((l >= 7 && !memcmp(s, "chidori", 7)) || (l >= 5 && !memcmp(s, "[log]", 5))) abort();
        }
        line = i + 1;
    }
    buf again = {0};
    term_sanitize(&again, (const char *)o, len, at_start);
    if (again.len != len || memcmp(again.data ? again.data : "", o, len) != 0) abort();
    buf_free(&again);
    buf_free(&b);
}

static bool escaped(uint32_t v)
{
    return (v >= 0x80 && v <= 0x9f) || (v >= 0x202a && v <= 0x202e) || (v >= 0x2066 && v <= 0x2069);
}

static void check_json(const char *in, size_t n)
{
    buf b = {0};
    term_json_escape(&b, in, n);
    const char *o = b.data ? b.data : "";
    /* only the escaped code points changed: drop their \uHHHH forms and their UTF-8 forms, and
     * the rest is the same bytes */
    size_t i = 0, j = 0;
    while (i < n || j < b.len) {
        unsigned char c = i < n ? (unsigned char)in[i] : 0;
        uint32_t v = 0;
        size_t k = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 ? 2 : 1;
        bool esc = false;
        if (i < n && k > 1 && i + k <= n) {
            v = c & (0x7f >> k);
            bool ok = true;
            for (size_t m = 1; m < k; m++) ok &= ((unsigned char)in[i + m] & 0xc0) == 0x80, v = v << 6 | ((unsigned char)in[i + m] & 0x3f);
            esc = ok && escaped(v) && ((k == 2 && v >= 0x80) || (k == 3 && v >= 0x800));
        }
        if (esc) {
            char want[7];
            snprintf(want, sizeof want, "\\u%04x", (unsigned)v);
            if (j + 6 > b.len || memcmp(o + j, want, 6) != 0) abort();
            i += k, j += 6;
        } else {
            if (i >= n || j >= b.len || in[i] != o[j]) abort();
            i++, j++;
        }
    }
    json_error jerr;
    json_limits lim = {1 << 20, 64, 0};
    json_t *a = json_parse(in, n, &lim, &jerr);
    if (a) {
        json_t *z = json_parse(o, b.len, &lim, &jerr);
        if (!z || !json_equal(a, z)) abort();
        json_free(z);
        json_free(a);
    }
    buf_free(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 16) return 0;
    check((const char *)data, size, true);
    check((const char *)data, size, false);
    check_json((const char *)data, size);
    return 0;
}
