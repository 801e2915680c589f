/* stream_out.h — `chidori run --stream`: the run's events as NDJSON on stdout (docs/effects.md).
 *
 * One JSON object per line, keys sorted (as the original chidori writes them):
 *   {"record": <the call record>, "type": "call"}              each recorded call, as it is appended
 *   {"model", "prompt_type", "seq", "stream_id", "type": "prompt_start"}
 *   {"delta", "prompt_type", "seq", "stream_id", "type": "prompt_delta"}
 *   {"error", "prompt_type", "seq", "stream_id", "type": "prompt_end"}
 *   and last {"type": "done", "status": …} (stream_out_done).
 * Trusts the runner's records and events (host-side values); writes text only as JSON. Called
 * from the thread that performs the calls, and at the end from the command's thread.
 */
#ifndef CHIDORI_CLI_STREAM_OUT_H
#define CHIDORI_CLI_STREAM_OUT_H

#include <stdio.h>

#include "util/json.h"

typedef struct stream_out stream_out;

stream_out *stream_out_new(FILE *out);
void stream_out_free(stream_out *so);
/* runner_request.prompt_event */
void stream_out_prompt_event(void *so, const json_t *event);
/* runner_request.sink (a calllog_sink_fn): always 0 — a closed stdout does not stop the run */
int stream_out_record(void *so, const json_t *record, char **error);
/* The last line: {"output", "run_id", "status": "completed", "type": "done"},
 * {"pending", "run_id", "status": "paused", "type": "done"} or
 * {"error", "status": "failed", "type": "done"} (no run_id, as the original). */
void stream_out_done(stream_out *so, const char *status, const char *run_id, const json_t *output,
                     const json_t *pending, const char *error);

#endif
