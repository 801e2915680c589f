/* termtext.c — sanitizing agent text for the operator's eyes (see termtext.h). */
#include "util/termtext.h"

#include <stdint.h>
#include <string.h>

/* Lines of chidori's own that a guest line must not pass for. */
static const char *const own_starts[] = {"chidori", "Chidori", "CHIDORI", "[log]", "[session", "mcp[", "Run id:",
                                         "Resume with:", "Policy:", "Isolation:"};

/* `Run <run id> paused, …`: a run id is a UUID, 8 hex digits then a dash */
static bool run_status_line(const char *s, size_t n)
{
    if (n < 13 || memcmp(s, "Run ", 4) != 0 || s[12] != '-') return false;
    for (size_t i = 4; i < 12; i++)
        if (!strchr("0123456789abcdefABCDEF", s[i])) return false;
    return true;
}

static bool looks_like_ours(const char *s, size_t n)
{
    while (n && (*s == ' ' || *s == '\t')) s++, n--;
    if (run_status_line(s, n) || (n >= 2 && s[0] == '?' && s[1] == ' ')) return true; /* a status line, a question */
    for (size_t i = 0; i < sizeof own_starts / sizeof own_starts[0]; i++) {
        size_t k = strlen(own_starts[i]);
        if (n >= k && !memcmp(s, own_starts[i], k)) return true;
    }
    return false;
}

/* The length of the valid UTF-8 sequence at s (1-4) and its code point, or 0 when it is not one
 * (overlong forms, surrogates and values above U+10FFFF are not valid). */
static size_t utf8_char(const unsigned char *s, size_t n, uint32_t *cp)
{
    unsigned char c = s[0];
    size_t len;
    uint32_t v, min;
    if (c < 0x80) return *cp = c, 1;
    if (c >= 0xc2 && c <= 0xdf) len = 2, v = c & 0x1f, min = 0x80;
    else if (c >= 0xe0 && c <= 0xef) len = 3, v = c & 0x0f, min = 0x800;
    else if (c >= 0xf0 && c <= 0xf4) len = 4, v = c & 0x07, min = 0x10000;
    else return 0;
    if (n < len) return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80) return 0;
        v = v << 6 | (s[i] & 0x3f);
    }
    if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff)) return 0;
    *cp = v;
    return len;
}

static bool escaped_code_point(uint32_t cp)
{
    return (cp >= 0x80 && cp <= 0x9f) || (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

void term_sanitize(buf *out, const char *text, size_t len, bool at_line_start)
{
    const unsigned char *s = (const unsigned char *)text;
    bool line_start = at_line_start;
    for (size_t i = 0; i < len;) {
        if (line_start) {
            size_t end = i;
            while (end < len && s[end] != '\n') end++;
            if (looks_like_ours(text + i, end - i)) buf_puts(out, GUEST_LINE_MARK);
            line_start = false;
        }
        unsigned char c = s[i];
        if (c == '\n') {
            buf_putc(out, '\n');
            line_start = true;
            i++;
        } else if (c == '\t' || (c == '\r' && i + 1 < len && s[i + 1] == '\n')) {
            buf_putc(out, (char)c);
            i++;
        } else if (c < 0x20 || c == 0x7f) {
            buf_printf(out, "\\x%02x", c);
            i++;
        } else if (c < 0x80) {
            size_t run = i + 1; /* a run of plain printable ASCII at once */
            while (run < len && s[run] >= 0x20 && s[run] < 0x7f) run++;
            buf_append(out, text + i, run - i);
            i = run;
        } else {
            uint32_t cp;
            size_t n = utf8_char(s + i, len - i, &cp);
            if (n == 0) {
                buf_printf(out, "\\x%02x", c);
                i++;
            } else {
                if (escaped_code_point(cp)) buf_printf(out, "\\u{%04x}", (unsigned)cp);
                else buf_append(out, text + i, n);
                i += n;
            }
        }
    }
}

void term_write(FILE *f, const char *text, size_t len, bool at_line_start)
{
    buf b = {0};
    term_sanitize(&b, text, len, at_line_start);
    if (b.len) fwrite(b.data, 1, b.len, f);
    buf_free(&b);
}

void term_json_escape(buf *out, const char *json, size_t len)
{
    const unsigned char *s = (const unsigned char *)json;
    size_t plain = 0; /* start of the bytes not yet written */
    for (size_t i = 0; i < len;) {
        uint32_t cp;
        size_t n = s[i] < 0x80 ? 1 : utf8_char(s + i, len - i, &cp);
        if (n > 1 && escaped_code_point(cp)) {
            buf_append(out, json + plain, i - plain);
            buf_printf(out, "\\u%04x", (unsigned)cp);
            plain = i + n;
        }
        i += n ? n : 1;
    }
    buf_append(out, json + plain, len - plain);
}
