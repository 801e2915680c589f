/* signal_inbox.h — a CLI run's signal mailbox: <run folder>/signals/inbox.json.
 *
 * The host's host_signal_box (host.h) for runs the command line drives. `chidori resume --signal`
 * hands a signal to the seq the run paused on (signal_inbox_hand); the resumed run, performing
 * that call again, takes it (signal_inbox_take). A signal stays in the file once taken, marked with
 * the seq that took it, so a resume killed after the take and before the record gets the same
 * signal again, never a second one. The file is capped (SIGNAL_INBOX_MAX_BYTES) and read as
 * untrusted JSON: anything else in it is an error that says so, never a guess.
 */
#ifndef CHIDORI_CLI_SIGNAL_INBOX_H
#define CHIDORI_CLI_SIGNAL_INBOX_H

#include <stddef.h>
#include <stdint.h>

#include "host/host.h"
#include "util/json.h"

#define SIGNAL_INBOX_MAX_BYTES ((size_t)16 << 20)

/* The box of the run folder dir (a path kept by the caller for the run's life). */
typedef struct signal_inbox {
    host_signal_box box;
    char *path;
} signal_inbox;

void signal_inbox_init(signal_inbox *in, const char *run_dir);
void signal_inbox_clear(signal_inbox *in);

/* Hand {name, payload, from} to the call at seq (replacing what an earlier, refused resume
 * handed it). 0, or -1 with *error. */
int signal_inbox_hand(signal_inbox *in, uint64_t seq, const char *name, const json_t *payload, const json_t *from,
                      char **error);
/* Take back what was handed to seq (a resume that was refused before the call ran). */
void signal_inbox_unhand(signal_inbox *in, uint64_t seq);

#endif
