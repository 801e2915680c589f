/* replay_from.h — the `replay_from` field of POST /sessions: a call log given by the client (as
 * GET /sessions/{id}/checkpoint returns it, or as the original chidori's SDKs send it), checked
 * before a session is created from it.
 *
 * The records are checked by the one call-log loader (host/calllog.h, calllog_load_records), so
 * whatever record shapes it accepts are accepted here, and nothing else. The body that carries
 * them is already capped (HTTP_BODY_MAX) and depth-limited (request.c); the count is capped by
 * the session's log cap (CHIDORI_LOG_MAX_RECORDS / _BYTES). Trusts nothing in the value.
 */
#ifndef CHIDORI_SERVE_REPLAY_FROM_H
#define CHIDORI_SERVE_REPLAY_FROM_H

#include "host/calllog.h"
#include "util/json.h"

/* 0 when v (the field's value) is a call log the loader accepts within caps; -1 with *error
 * (what is wrong, naming the record) otherwise. */
int replay_from_check(const json_t *v, const calllog_caps *caps, char **error);

#endif
