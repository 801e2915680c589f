/* header_deadline.h — a deadline for each connection's request headers (header_deadline.c).
 *
 * libmicrohttpd 0.9.75 has one inactivity timeout: a client that sends a header line every few
 * seconds keeps its connection for ever. This table gives each connection a deadline: its
 * request headers must be complete within timeout_s of its acceptance, and, kept alive, of its
 * previous reply's end. A thread looks every second and shuts down (shutdown(2), both ways) the
 * socket of a connection past its deadline; libmicrohttpd sees it end and closes it.
 *
 * Knows sockets, not HTTP: httpd.c says when a connection starts, when its headers are in, when a
 * reply is done and when it closes. The table is sized once (no allocation per connection); its
 * lock is taken when a connection opens or closes and by the once-a-second sweep, never per
 * request (marking headers in or a reply done is one atomic store).
 */
#ifndef CHIDORI_SERVE_HEADER_DEADLINE_H
#define CHIDORI_SERVE_HEADER_DEADLINE_H

typedef struct header_deadlines header_deadlines;
typedef struct hd_slot hd_slot;

/* A table for up to capacity connections at once, and its sweeping thread. NULL when no thread
 * could be had. */
header_deadlines *header_deadlines_start(int capacity, int timeout_s);
/* Stops the thread, frees the table (after the HTTP server is stopped). */
void header_deadlines_stop(header_deadlines *hd);

/* A connection was accepted on fd: its headers are due within timeout_s. NULL when the table is
 * full (the connection is then only under the idle timeout). */
hd_slot *header_deadlines_add(header_deadlines *hd, int fd);
/* Its request headers are complete: no deadline until the reply is done. */
void header_deadlines_met(hd_slot *slot);
/* Its reply is done and it stays open: the next request's headers are due within timeout_s. */
void header_deadlines_rearm(header_deadlines *hd, hd_slot *slot);
/* It is closing (before its socket is closed). */
void header_deadlines_remove(header_deadlines *hd, hd_slot *slot);

#endif
