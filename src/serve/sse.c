/* sse.c — Server-Sent Events framing of a session follower (see sse.h). Trusts the session layer;
 * one caller at a time (the connection's reader, or the thread that waits for it). */
#define _GNU_SOURCE
#include "serve/sse.h"
#include "util/buf.h"

#include <stdlib.h>
#include <string.h>

struct sse_stream {
    sessions *ss;
    session_follower f;
    buf pending; /* bytes formatted but not yet taken */
    size_t offset;
    bool ended;
};

sse_stream *sse_new(sessions *ss, const session_follower *f)
{
    sse_stream *st = xcalloc(1, sizeof *st);
    st->ss = ss;
    st->f = *f;
    return st;
}

/* Format the next event into pending, waiting up to timeout_ms for it; after a wait that saw
 * nothing, a keep-alive (none when timeout_ms is 0: nothing is pending then). Sets ended at the
 * end of the stream. Called with nothing pending. */
static void refill(sse_stream *st, int timeout_ms)
{
    const char *event = NULL;
    char *data = NULL;
    int rc = sessions_follow_next(st->ss, &st->f, timeout_ms, &event, &data);
    buf_free(&st->pending);
    st->offset = 0;
    if (rc < 0) {
        st->ended = true;
    } else if (rc == 0) {
        if (timeout_ms > 0) buf_puts(&st->pending, ": keep-alive\n\n");
    } else {
        /* compact JSON has no raw newline, so one data line holds it */
        buf_printf(&st->pending, "event: %s\ndata: %s\n\n", event, data);
        free(data);
    }
}

ssize_t sse_read(sse_stream *st, char *out, size_t max)
{
    if (st->offset >= st->pending.len && !st->ended) refill(st, 0);
    if (st->offset >= st->pending.len) return st->ended ? -1 : 0;
    size_t n = st->pending.len - st->offset;
    if (n > max) n = max;
    memcpy(out, st->pending.data + st->offset, n);
    st->offset += n;
    return (ssize_t)n;
}

void sse_wait(sse_stream *st)
{
    if (st->offset >= st->pending.len && !st->ended) refill(st, SSE_KEEPALIVE_MS);
}

void sse_free(sse_stream *st)
{
    if (!st) return;
    sessions_unfollow(st->ss, &st->f);
    buf_free(&st->pending);
    free(st);
}
