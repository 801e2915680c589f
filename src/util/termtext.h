/* termtext.h — the one sanitizer for text that came from an agent (or an MCP server) and is shown
 * to the operator: on the terminal (console.log/error, chidori.log, error messages, the question
 * of chidori.input, the output JSON of a run through term_json_escape) and in
 * `serve`'s session log lines.
 *
 * Such text must not drive the terminal nor pass for chidori's own lines. So:
 *  - newline and tab stay; CR stays only right before a newline (CRLF text);
 *  - every other C0 control, DEL, and a byte that is not part of valid UTF-8 is written \xHH
 *    (ESC → \x1b: no cursor moves, colours, window titles, OSC 52 clipboard writes, hyperlinks);
 *  - the C1 controls U+0080–U+009F (a terminal may read U+009B as CSI) and the bidirectional
 *    embedding, override and isolate controls U+202A–U+202E, U+2066–U+2069 (which reorder what a
 *    line shows) are written \u{HHHH};
 *  - everything else — printable ASCII, any other UTF-8 text, emoji — is written byte for byte;
 *  - a line that begins like chidori's own diagnostics ("chidori…", "[log]", "[session", "mcp[",
 *    "Run id:", "Resume with:", "Policy:", "Isolation:"), after any spaces, gets GUEST_LINE_MARK
 *    in front, so a forged `chidori: policy: …` line is told apart from a real one.
 *
 * Pure over bytes (plus the FILE it writes). Trusts nothing in the text.
 */
#ifndef CHIDORI_TERMTEXT_H
#define CHIDORI_TERMTEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "util/buf.h"

#define GUEST_LINE_MARK "(guest) "

/* Append text[0..len) sanitized to out. at_line_start: the text's first line starts a line of
 * output (guest console output); false when chidori wrote a prefix before it ("[log] ",
 * "chidori: "), so only the lines after a newline are checked for marking. */
void term_sanitize(buf *out, const char *text, size_t len, bool at_line_start);
/* The same, written to f. */
void term_write(FILE *f, const char *text, size_t len, bool at_line_start);

/* Append JSON text (as json_dump writes it: C0 controls already escaped) to out with each of the
 * code points term_sanitize escapes (C1, bidi controls) written as a JSON \uHHHH escape instead:
 * the same JSON value, which no longer drives a terminal when it is printed (a run's output). */
void term_json_escape(buf *out, const char *json, size_t len);

#endif
