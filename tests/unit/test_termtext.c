/* test_termtext.c — the sanitizer of agent text for the operator (src/util/termtext.c): escape
 * sequences, C0/C1 controls, bidi controls and invalid UTF-8 are escaped; ordinary text (UTF-8,
 * emoji, tabs, CRLF) is byte-identical; lines that look like chidori's own are marked; the result
 * is stable under a second pass. */
#include "unit.h"
#include "util/termtext.h"

#include <stdlib.h>

#define N(a) (sizeof(a) / sizeof((a)[0]))

static char *san(const char *s, size_t n, bool at_start)
{
    buf b = {0};
    term_sanitize(&b, s, n, at_start);
    return buf_steal(&b);
}

TEST(termtext_escapes_controls_and_keeps_text)
{
    static const struct { const char *in, *want; bool start; } rows[] = {
        {"plain ascii", "plain ascii", true},
        {"\xc3\xbcn\xc3\xaf" "c\xc3\xb6" "d\xc3\xa9 \xe4\xb8\xad \xf0\x9f\x8e\x89", "\xc3\xbcn\xc3\xaf" "c\xc3\xb6" "d\xc3\xa9 \xe4\xb8\xad \xf0\x9f\x8e\x89", true},
        {"a\tb\r\nc\n", "a\tb\r\nc\n", true},
        {"\x1b]0;title\x07", "\\x1b]0;title\\x07", true},
        {"\x1b[2J\x1b[H", "\\x1b[2J\\x1b[H", true},
        {"x\ry", "x\\x0dy", true},
        {"end\r", "end\\x0d", true},
        {"\x7f\x08", "\\x7f\\x08", true},
        {"\xc2\x9b" "31m", "\\u{009b}31m", true},
        {"\xc2\x85", "\\u{0085}", true},
        {"\xc2\xa0nbsp", "\xc2\xa0nbsp", true},
        {"evil\xe2\x80\xaegnp", "evil\\u{202e}gnp", true},
        {"\xe2\x81\xa6iso\xe2\x81\xa9", "\\u{2066}iso\\u{2069}", true},
        {"\xe2\x80\x8fRLM stays", "\xe2\x80\x8fRLM stays", true},
        {"\xff\xfe", "\\xff\\xfe", true},
        {"\xc0\xaf", "\\xc0\\xaf", true},             /* overlong */
        {"\xed\xa0\x80", "\\xed\\xa0\\x80", true},     /* surrogate */
        {"\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80", true}, /* above U+10FFFF */
        {"\xe4\xb8", "\\xe4\\xb8", true},              /* cut short */
        {"chidori: policy: x", "(guest) chidori: policy: x", true},
        {"chidori: policy: x", "chidori: policy: x", false},
        {"ok\nchidori: policy: x", "ok\n(guest) chidori: policy: x", false},
        {"  [log] y\n\tRun id: z\nmcp[s]: w", "(guest)   [log] y\n(guest) \tRun id: z\n(guest) mcp[s]: w", true},
        {"[session 1] a\nResume with: b\nPolicy: c\nIsolation: d", "(guest) [session 1] a\n(guest) Resume with: b\n(guest) Policy: c\n(guest) Isolation: d", true},
        {"say chidori", "say chidori", true},
        {"", "", true},
    };
    for (size_t i = 0; i < N(rows); i++) {
        char *got = san(rows[i].in, strlen(rows[i].in), rows[i].start);
        if (strcmp(got, rows[i].want) != 0) {
            char m[512];
            snprintf(m, sizeof m, "row %zu: got \"%.200s\", want \"%.200s\"", i, got, rows[i].want);
            unit_fail(__FILE__, __LINE__, m);
            free(got);
            return;
        }
        char *again = san(got, strlen(got), rows[i].start);
        CHECK_STR(again, got);
        free(again);
        free(got);
    }
    char *nul = san("a\0b", 3, true);
    CHECK_STR(nul, "a\\x00b");
    free(nul);
}
