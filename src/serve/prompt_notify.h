/* prompt_notify.h — a live prompt's events between nodes sharing a PostgreSQL store
 * (docs/scaling.md): the owner of a running session sends each prompt event it keeps
 * (prompt_events.h) as a NOTIFY on PROMPT_EVENTS_CHANNEL; every other node's listener decodes it
 * and keeps it for the streams it serves of that session.
 *
 * The payload (at most PROMPT_NOTIFY_MAX bytes, PostgreSQL's limit) is one compact JSON object:
 * {"a": attempt number or -1, "e": the event {type, stream_id, seq, prompt_type, delta | model |
 * error}, "n": the sending node, "r": call records stored when it happened, "s": the session}.
 * An event that does not fit is split: a prompt_delta into several prompt_delta notifications whose
 * deltas concatenate to the original (sent in order, at the same place); a prompt_start's model or a
 * prompt_end's error longer than PROMPT_NOTIFY_TEXT_MAX is cut there and ends with "…".
 *
 * Decoding trusts nothing: anyone with access to the database can NOTIFY on the channel. The size,
 * the nesting, every field's type and range are checked; anything else is refused (false). */
#ifndef CHIDORI_SERVE_PROMPT_NOTIFY_H
#define CHIDORI_SERVE_PROMPT_NOTIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/json.h"

#define PROMPT_EVENTS_CHANNEL "chidori_prompt_events"
#define PROMPT_NOTIFY_MAX 7999      /* bytes of one payload (PostgreSQL refuses 8000 and more) */
#define PROMPT_NOTIFY_TEXT_MAX 1024 /* bytes a model or error text keeps when it does not fit */
#define PROMPT_NOTIFY_ID_MAX 256    /* bytes of a node or session id */

/* Called once per payload, in order. */
typedef void prompt_notify_send(void *ctx, const char *payload);

/* Encode one host event (as prompt_events_push takes it) for the other nodes: nothing for an
 * event that is not a prompt event, or when the ids alone do not fit. */
void prompt_notify_encode(const char *node, const char *session, size_t records, int64_t attempt,
                          const json_t *event, prompt_notify_send *send, void *ctx);

typedef struct prompt_notice {
    char *node, *session; /* malloc'd */
    size_t records;
    int64_t attempt;      /* -1: none */
    json_t *event;        /* {type, stream_id, seq, prompt_type, delta | model | error} */
} prompt_notice;

/* Decode len bytes of a payload: true with *out filled (prompt_notice_clear frees it), false for
 * anything malformed (*out then holds nothing). */
bool prompt_notify_decode(const char *payload, size_t len, prompt_notice *out);
void prompt_notice_clear(prompt_notice *n);

#endif
