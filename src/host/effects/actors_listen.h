/* actors_listen.h — where the signals effect (effects/signal.c) and the actors effect
 * (effects/actors.c) meet: a listen point inside an actor reads the actor's mailbox, and the run's
 * own chidori.receive reads the run's signal inbox.
 */
#ifndef CHIDORI_ACTORS_LISTEN_H
#define CHIDORI_ACTORS_LISTEN_H

#include "host/ops.h"

#define ACTORS_NOT_AN_ACTOR (-100)

/* effects/actors.c. In an actor's host: take the earliest message of names (an array of strings)
 * from the actor's mailbox, else (unless poll) block in place until one comes, timeout_ms passes
 * (0: none; *result is the timeout sentinel, its name null when fan_in), a stop is asked
 * (HOST_ERROR) or, with no timeout, the actor's idle cap passes (HOST_SUSPEND: it parks paused).
 * A poll's *result is the message or JSON null. Returns a HOST_* code, or ACTORS_NOT_AN_ACTOR when
 * h is not an actor's host (nothing was done). */
int actors_listen(host *h, const json_t *names, uint64_t timeout_ms, bool poll, bool fan_in, json_t **result,
                  char **error);

/* effects/signal.c. Take the earliest signal of names queued for this run (its mailbox,
 * host_config.signals), marked with the call's seq: 1 with *signal {name, payload, from}, 0 when
 * none is queued (or the run has no mailbox), -1 with *error. */
int signal_take_queued(host *h, const json_t *names, json_t **signal, char **error);

#endif
