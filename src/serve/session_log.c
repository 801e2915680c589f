/* session_log.c — a session's log stream: the host's `[log] …` lines, console output and policy
 * denials of one session, written to the server's stderr one whole line at a time with the
 * session id in front, so the lines of concurrent sessions neither interleave nor lose their
 * owner. (An isolated worker's own stderr is relayed by the supervisor as it is.) */
#define _GNU_SOURCE
#include "serve/session_log.h"
#include "util/buf.h"
#include "util/termtext.h"

#include <stdlib.h>
#include <string.h>

#define LINE_MAX_BYTES 65536 /* a longer line is written in pieces */

typedef struct session_log {
    char *prefix;
    buf line;
} session_log;

static void emit(session_log *sl)
{
    buf out = {0};
    buf_puts(&out, sl->prefix);
    /* the host already sanitized guest text; this catches anything else on the way (idempotent) */
    term_sanitize(&out, sl->line.data ? sl->line.data : "", sl->line.len, false);
    buf_putc(&out, '\n');
    fwrite(out.data, 1, out.len, stderr); /* one call: stdio locks the stream around it */
    fflush(stderr);
    buf_free(&out);
    buf_free(&sl->line);
}

static ssize_t log_write(void *cookie, const char *data, size_t n)
{
    session_log *sl = cookie;
    for (size_t i = 0; i < n; i++) {
        if (data[i] == '\n') emit(sl);
        else {
            buf_putc(&sl->line, data[i]);
            if (sl->line.len >= LINE_MAX_BYTES) emit(sl);
        }
    }
    return (ssize_t)n;
}

static int log_close(void *cookie)
{
    session_log *sl = cookie;
    if (sl->line.len) emit(sl);
    free(sl->prefix);
    buf_free(&sl->line);
    free(sl);
    return 0;
}

FILE *session_log_open(const char *session_id)
{
    session_log *sl = xcalloc(1, sizeof *sl);
    sl->prefix = xasprintf("[session %s] ", session_id);
    FILE *f = fopencookie(sl, "w", (cookie_io_functions_t){.write = log_write, .close = log_close});
    if (!f) {
        free(sl->prefix);
        free(sl);
    }
    return f;
}
