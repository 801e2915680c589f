/* sse.c — Server-Sent Events framing of a session follower (see sse.h). */
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

/* Format the next event (or a keep-alive) into pending. false at the end of the stream. */
static bool refill(sse_stream *st)
{
    const char *event = NULL;
    char *data = NULL;
    int rc = sessions_follow_next(st->ss, &st->f, SSE_KEEPALIVE_MS, &event, &data);
    buf_free(&st->pending);
    st->offset = 0;
    if (rc < 0) return false;
    if (rc == 0) {
        buf_puts(&st->pending, ": keep-alive\n\n");
    } else {
        /* compact JSON has no raw newline, so one data line holds it */
        buf_printf(&st->pending, "event: %s\ndata: %s\n\n", event, data);
        free(data);
    }
    return true;
}

ssize_t sse_read(sse_stream *st, char *out, size_t max)
{
    if (st->ended) return -1;
    if (st->offset >= st->pending.len && !refill(st)) {
        st->ended = true;
        return -1;
    }
    size_t n = st->pending.len - st->offset;
    if (n > max) n = max;
    memcpy(out, st->pending.data + st->offset, n);
    st->offset += n;
    return (ssize_t)n;
}

void sse_free(sse_stream *st)
{
    if (!st) return;
    sessions_unfollow(st->ss, &st->f);
    buf_free(&st->pending);
    free(st);
}
