/* ahead.h — replay ahead, the parent's side: answers of recorded calls offered to the worker.
 *
 * Replaying a run isolated costs a round trip per recorded call. So the parent offers the worker,
 * on a reply, the answers of the next records of the log that replay alone answers
 * (host_replay_ahead). The worker answers a call from the head of its offer when the op is the
 * same, and sends the call marked "ahead" without waiting for a reply. The parent takes such a
 * call through host_call exactly as any other, in order, and ends the run when it did not replay
 * the very record offered, with the very answer offered. Nothing is performed or recorded that a
 * round trip would not have: the worker only learns earlier the answers it was going to get.
 *
 * The queue is the same on both sides: both take its head at an ahead call; a reply without an
 * `ahead` member leaves it as it is, one with it replaces it (an empty one clears it). The parent
 * replaces it when its head no longer is the log's next record (a call that waited replayed or
 * diverged), and offers more when it is used up.
 *
 * A trace op's call (mark) is answered ahead with no offer: see ahead_trace below.
 *
 * Trusts host_call; nothing of the worker: an ahead call that was not offered fails the run.
 */
#ifndef CHIDORI_ISOLATE_AHEAD_H
#define CHIDORI_ISOLATE_AHEAD_H

#include <stdbool.h>
#include <stdint.h>

#include "host/host.h"
#include "util/json.h"

typedef struct ahead {
    host_ahead_entry *queue; /* what the worker was offered last (host_replay_ahead) */
    size_t len, next;        /* the queue is queue[next..len) */
    size_t batch;            /* calls in the next offer: doubles while offers are used up, back to
                                one when an offer is dropped unused */
    uint64_t charge;         /* ticks the meter handed out at a call answered ahead: owed again at the
                                next meter (host_charge_back), or carried by the next reply */
    bool enabled;
} ahead;

void ahead_start(ahead *a, bool enabled);
void ahead_end(ahead *a);

/* An ahead call of op: NULL when it is the head of the queue, else why the frame is refused. */
char *ahead_expect(const ahead *a, const char *op);
/* After host_call answered that call with rc (seq_before: the log's next record before it): NULL
 * when it replayed the offered record, so that its answer was the offered one (both are
 * host_recorded_outcome of that record), and the head is taken; otherwise why the run ends. */
char *ahead_settle(ahead *a, host *h, uint64_t seq_before, int rc);
/* Trace ops (host_op_is_trace: mark) need no offer: their answer is null whenever the call is taken
 * at all. The worker goes on past a call of one that the head of its queue does not answer, and
 * sends it marked "ahead" with the time it made it ("at"); the parent takes it through host_call
 * as any other (live, or replayed against the log: a divergence ends the run as it would have).
 * ahead_trace: whether an ahead call of op is such a call (the queue's head is checked first, on
 * both sides; none when answers ahead are off, CHIDORI_ISOLATE_AHEAD=0). ahead_trace_settle: after
 * host_call answered it with rc, result and error, NULL when that answer was null, as the worker
 * took it to be; otherwise why the run ends (nothing but a compromised worker gets there: the
 * prelude makes every mark's args valid, and an aborted host says its own reason). */
bool ahead_trace(const ahead *a, const char *op);
char *ahead_trace_settle(host *h, const char *op, int rc, const json_t *result, const char *error);
/* The reply to a call that waited: what its `ahead` member is (NULL: leave the worker's queue as
 * it is). Call it after host_call answered that call with answer (its result; NULL for an error):
 * beside a large answer no new answers are offered, so that the reply stays inside a frame's
 * limits (a queue that no longer holds is still cleared, with an empty offer). */
json_t *ahead_offer(ahead *a, host *h, const json_t *answer);

#endif
