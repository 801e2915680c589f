/* sse.h — a session's events as a Server-Sent Events body.
 *
 * The transport (httpd.c) pulls bytes with sse_read, which never blocks: the HTTP threads are a
 * small pool shared by every connection. When nothing is ready, httpd.c suspends the connection
 * and calls sse_wait on a thread of its own, which waits on the session's condition variable for
 * the next record, then resumes the connection. Every SSE_KEEPALIVE_MS without an event, a
 * comment line keeps proxies and clients from timing out.
 *
 *   event: call               data: <the record>          one per record, past ones first
 *   event: paused             data: <session view>        the run waits for an input
 *   event: awaitingapproval   data: <session view>        the run waits for an approval
 *   event: done               data: <session view>        last; the stream ends
 */
#ifndef CHIDORI_SERVE_SSE_H
#define CHIDORI_SERVE_SSE_H

#include <sys/types.h>

#include "serve/sessions.h"

#define SSE_KEEPALIVE_MS 15000

typedef struct sse_stream sse_stream;

/* A stream of f's events (f already following; the stream unfollows it when freed). */
sse_stream *sse_new(sessions *ss, const session_follower *f);
/* Up to max bytes into buf, without waiting: 0 when nothing is ready yet (sse_wait, then read
 * again); -1 at the end of the stream. */
ssize_t sse_read(sse_stream *st, char *buf, size_t max);
/* Block until sse_read has something to give: the next event, a keep-alive, or the end. */
void sse_wait(sse_stream *st);
void sse_free(sse_stream *st);

#endif
