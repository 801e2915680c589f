/* prompt_events.h — a session's streamed prompt events (prompt_start, prompt_delta, prompt_end),
 * kept in memory for its SSE streams (docs/http-api.md).
 *
 * Events are not records: they are not stored, and a session loaded from the store has none. Each
 * is placed in the session's event order by the number of call records stored when it happened,
 * so a stream sends it after those records and before the next (the prompt's own `call` record).
 * The buffer is bounded (PROMPT_EVENTS_MAX_BYTES, PROMPT_EVENTS_MAX_COUNT): past either, the oldest
 * events are dropped, and a stream that had not sent them yet goes on from the oldest kept.
 *
 * Not locked: the caller holds the sessions' lock around every call. Trusts its caller.
 */
#ifndef CHIDORI_SERVE_PROMPT_EVENTS_H
#define CHIDORI_SERVE_PROMPT_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/json.h"

#define PROMPT_EVENTS_MAX_BYTES ((size_t)4 << 20)
#define PROMPT_EVENTS_MAX_COUNT 8192

typedef struct prompt_events prompt_events;

prompt_events *prompt_events_new(void);
void prompt_events_free(prompt_events *pe);
/* Keep one event: the host's {type, stream_id, seq, prompt_type, …} becomes the SSE event `type`
 * with the rest as its data, keys in byte order as the original chidori sends them, plus
 * attempt_number when attempt is non-negative. records: call records stored so far. */
void prompt_events_push(prompt_events *pe, const json_t *event, int64_t attempt, size_t records);
/* The next event for a stream that has sent records_sent records and every event before *cursor:
 * true with *event (a static name) and *data (malloc'd), and
 * *cursor moved past it. Events placed before a record the stream has sent (late: relayed from
 * another node) are skipped. */
bool prompt_events_next(const prompt_events *pe, uint64_t *cursor, size_t records_sent, const char **event,
                        char **data);

#endif
