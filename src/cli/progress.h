/* progress.h — the live status line of `chidori run` / `resume` on a terminal: the current effect
 * (op and target), the time since the run started and the tokens so far, rewritten in place on
 * stderr (a carriage return, the text, spaces over the old text), at most ten times a second, and cleared before anything else
 * is written there.
 *
 * Everything the run writes on stderr while the line may be shown must go through
 * progress_stream() (the host's log_out), which clears the line first; the paused prompt, errors
 * and the outcome are written after progress_stop(). Trusts its caller; the op's target comes from
 * the agent and is escaped for the terminal (util/termtext.h).
 */
#ifndef CHIDORI_CLI_PROGRESS_H
#define CHIDORI_CLI_PROGRESS_H

#include <stdbool.h>
#include <stdio.h>

#include "util/json.h"

typedef struct progress progress;

/* A progress line drawn on stderr, or NULL when stderr is not a terminal, `quiet` is set or the
 * line cannot be set up (then nothing is drawn and callers pass NULL along). */
progress *progress_new(bool quiet);
/* The stream the run writes its log and console lines to: clears the line before each write.
 * NULL p: stderr. */
FILE *progress_stream(progress *p);
/* The run starts now (the elapsed time counts from here; a ticker redraws the line). */
void progress_start(void *p);
/* runner_request.call_started: a live call starts. */
void progress_call_started(void *p, const char *op, const json_t *args);
/* runner_request.sink: a record was appended (its tokens are added). Always 0. */
int progress_record(void *p, const json_t *record, char **error);
/* Clear the line and stop drawing (safe to call twice, and with NULL). */
void progress_stop(progress *p);
void progress_free(progress *p);

#endif
