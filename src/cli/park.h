/* park.h — parked runs of the command line (docs/durable-runs.md#parked-runs-on-the-command-line).
 *
 * With CHIDORI_PARK_MS set, a `chidori run` (or resume) that ends paused on an input leaves a
 * process behind: a resume of the run started ahead of time. It replays the log up to the pause
 * while nobody waits, then waits, live, at the pending input. A `chidori resume` that comes within
 * the time hands it the answer and its own standard streams over a socket, and exits with the exit
 * code the run ends with; the run goes on in the parked process, as the resume would have run it.
 * Anything that would make the two differ (another environment, working folder or posture, the
 * agent's source or the run's files changed since) makes the parked process go, and the resume
 * replays as always.
 *
 * Owns: the socket of a parked run (<state dir>/parked/<hash of the run folder>.sock, in a folder
 * only this user may enter), the messages on it, and the start of the parked process.
 * Trusts: a peer of the same user id (checked with SO_PEERCRED), as the user; nothing of its bytes
 * (a size cap, parsed as JSON, fields checked).
 */
#ifndef CHIDORI_CLI_PARK_H
#define CHIDORI_CLI_PARK_H

#include <stdbool.h>
#include <stdint.h>

#include "util/json.h"

/* Where a run's parked process listens. */
typedef struct park_place {
    char *dir;  /* <state dir>/parked */
    char *name; /* <hash>.sock */
} park_place;

/* The place for a run folder (its real path is hashed). -1 when the folder cannot be resolved. */
int park_place_of(const char *state_dir, const char *run_dir, park_place *out);
void park_place_clear(park_place *p);

/* The parked processes of this state dir that are alive now (what one that is gone left is
 * removed as it is counted). */
int park_count(const park_place *pl);

/* Start the parked process: argv (argv[0] unused: this binary runs) with this environment, in a
 * session of its own, its standard streams /dev/null and no descriptor inherited but the place
 * `seat` (park_listen: its lock held and its socket listening), which it adopts (park_adopt); this
 * process does not wait for it. The place is reserved before the run's lock is let go, so a
 * resume that comes before the parked process has started waits for it there. 0, or -1 when it
 * could not be started (the caller then closes the seat). */
struct park_listener;
int park_spawn(char *const argv[], const struct park_listener *seat);

/* The resume's side: hand the answer to the run's parked process. `who` says who resumes
 * (cli/run.c: the environment, the working folder, the agent, the posture), the parked process
 * takes the answer only from the same. Returns -1 when there is no parked process, -2 when it
 * refused and lets the run go (the resume replays, in both cases), else the exit code the run ended with in the parked
 * process, which wrote its output to this process's standard streams. hint goes along unchecked:
 * how the resume was invoked, for the words the run prints (the command a pause suggests). */
int park_hand(const park_place *pl, const json_t *who, const char *response, const json_t *hint);

/* Ask the run's parked process, if there is one, to let the run go (a resume that will not hand
 * it the answer); returns once it has (or at once when there is none). */
bool park_send_away(const park_place *pl); /* true when there was one */

/* The parked process's side. */
typedef struct park_listener park_listener;

/* At the parked process's start: its standard output and error are kept in memory (what the run
 * prints while it replays, as a resume prints it: the banner, warnings) and copied to the
 * resume's streams when one takes the run. -1 when they cannot be. */
int park_capture_streams(void);

/* getrlimit, but the file size limit as it was before park_capture_streams bounded it: the limit
 * the run goes on with, as a resume's would. */
struct rlimit;
int park_getrlimit(int resource, struct rlimit *rl);

/* Listen at the place (its folder made 0700 if missing; it must be this user's). NULL with *error. */
park_listener *park_listen(const park_place *pl, char **error);

/* While the run replays, before park_wait: a thread answers what need not wait for the replay. A
 * request to leave, or a resume whose `who` fits() refuses, makes this process exit at once
 * (nothing live runs before a hand-over, so it has written nothing; its place goes with it); a
 * resume that fits is kept for park_wait. fits is called on that thread. */
void park_watch_early(park_listener *l, bool (*fits)(void *ctx, const json_t *who), void *ctx);

/* Told a resume's `who`, answer and hint: 0 to take it (the parked run goes on), or -1 with *why. */
typedef int (*park_take_fn)(void *ctx, const json_t *who, const char *response, const json_t *hint, char **why);

/* Wait until until_ms (the monotonic clock) for a resume. A resume that take() refuses is told why
 * and the wait ends (the resume replays, which changes the run: this process's state is stale);
 * so does a request to leave. A resume that went away before it was taken is not; one that cannot
 * be told it was taken has untake() undo what take() did, and the wait ends.
 * 1 when one was taken: *response (malloc'd) is its answer, and its standard streams are this
 * process's 0, 1 and 2 now; 0 when none was. Should the resume that took it go away before the
 * run's end (park_report_exit), it was killed, and this process exits at once as the resume's own
 * run would have ended: killed, the run interrupted (its next resume continues it). */
int park_wait(park_listener *l, int64_t until_ms, park_take_fn take, void (*untake)(void *ctx), void *ctx,
              char **response);

/* After a taken resume: the run ended with this exit code. This process's standard streams are
 * /dev/null again first (the resume's readers see their end when the resume exits). */
void park_report_exit(park_listener *l, int code);

/* In a parked process started by park_spawn: the place it was handed, or NULL (started otherwise:
 * park_listen then). */
park_listener *park_adopt(const park_place *pl);

/* A listener that took a resume (its socket gone) listens again at its place: for the next parked
 * process of the run, which it is handed to. 0, or -1. */
int park_relisten(park_listener *l);

/* After park_spawn: this process's hold on the place let go (the place stays: the parked process
 * holds it). */
void park_listener_release(park_listener *l);

/* Stop listening: the socket is removed. */
void park_listener_close(park_listener *l);

#endif
