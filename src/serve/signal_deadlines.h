/* signal_deadlines.h — the server's timers for signal pauses with a timeout.
 *
 * One thread keeps every armed deadline (a session id, the seq it is paused at, the wall-clock
 * time it ends) and calls fire(ctx, id, seq) when one has passed: at once for a deadline already
 * past (a server that was down meanwhile re-arms every stored one at start). Deadlines are wall
 * clock (they are stored as such, and must hold across a restart). A session has one deadline at
 * most (it waits at one pause at a time): arming it again, at the same seq or a later one, replaces
 * it. fire runs on the timer's thread with no lock of this module held; it decides
 * (under the sessions' lock) whether the session still waits there.
 */
#ifndef CHIDORI_SERVE_SIGNAL_DEADLINES_H
#define CHIDORI_SERVE_SIGNAL_DEADLINES_H

#include <stdint.h>

typedef struct signal_deadlines signal_deadlines;
typedef void signal_deadline_fn(void *ctx, const char *session_id, uint64_t seq);

/* NULL when the thread cannot be started (then no deadline fires; said on stderr). */
signal_deadlines *signal_deadlines_start(signal_deadline_fn *fire, void *ctx);
void signal_deadlines_arm(signal_deadlines *dl, const char *session_id, uint64_t seq, int64_t deadline_ms);
/* Stop the thread (a fire in progress ends first) and free everything. NULL: nothing. */
void signal_deadlines_stop(signal_deadlines *dl);

#endif
