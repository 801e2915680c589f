/* store_signals.h — every session's signal mailbox, in the server's database (table `signals`, SQLite or PostgreSQL through db.h).
 *
 * A signal sent to a session is a row (session_id, delivery_seq, name, body, enqueued_at_ms,
 * taken_by): body is what the agent's chidori.signal call resolves to ({name, payload, from}, or
 * a timeout's sentinel), taken_by the seq of the call that took it (NULL while it is queued).
 * A row stays once taken, so a call performed again after a crash (its run re-run from the log)
 * takes the very same signal: a signal is delivered exactly once, whatever the server went
 * through. delivery_seq counts a session's signals from 1 and is never reused.
 *
 * Thread-safe through the store's lock (store_lock_db). Trusts nothing read back: a body is
 * parsed with limits and must be an object.
 */
#ifndef CHIDORI_SERVE_STORE_SIGNALS_H
#define CHIDORI_SERVE_STORE_SIGNALS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "serve/store.h"
#include "util/json.h"

/* Made by store_open when missing (an older database gains it; an older chidori ignores it), per
 * dialect (store.c picks one). */
#define STORE_SIGNALS_SCHEMA_SQLITE                                                                                \
    "CREATE TABLE IF NOT EXISTS signals (session_id TEXT NOT NULL, delivery_seq INTEGER NOT NULL,"                \
    " name TEXT NOT NULL, body TEXT NOT NULL, enqueued_at_ms INTEGER NOT NULL, taken_by INTEGER,"                 \
    " PRIMARY KEY (session_id, delivery_seq)) WITHOUT ROWID;"                                                     \
    "CREATE UNIQUE INDEX IF NOT EXISTS signals_taken ON signals (session_id, taken_by) WHERE taken_by IS NOT NULL;"
#define STORE_SIGNALS_SCHEMA_PG                                                                                    \
    "CREATE TABLE IF NOT EXISTS signals (session_id TEXT NOT NULL, delivery_seq BIGINT NOT NULL,"                 \
    " name TEXT NOT NULL, body TEXT NOT NULL, enqueued_at_ms BIGINT NOT NULL, taken_by BIGINT,"                   \
    " PRIMARY KEY (session_id, delivery_seq));"                                                                   \
    "CREATE UNIQUE INDEX IF NOT EXISTS signals_taken ON signals (session_id, taken_by) WHERE taken_by IS NOT NULL;"

/* A body larger than this is refused (the request's own cap is smaller; this guards the file). */
#define STORE_SIGNAL_MAX_BYTES ((size_t)4 << 20)
/* Signals queued (not yet taken) for one session: past this, a send is refused. */
#define STORE_SIGNALS_QUEUED_MAX 10000
/* Bytes of the bodies queued (not yet taken) for one session: past this, a send is refused, so a
 * client cannot grow the database without bound while the agent does not listen (the count alone
 * would let 10000 bodies of 1 MiB each in). */
#define STORE_SIGNALS_QUEUED_BYTES_MAX ((size_t)16 << 20)

struct db;
/* store.c: the connection under the store's lock (db.h), and its release. */
struct db *store_lock_db(store *st);
void store_unlock_db(store *st);

/* Queue body under name for the session (taken_by 0), or hand it to the call at taken_by. A hand
 * to a seq that already has one is not made: *handed_before is set and the row is queued instead
 * (it is not lost), except a timeout's sentinel (the empty name), which is dropped then.
 * *delivery_seq is the row's. 0; -2 with *error when the body is too large or the session's
 * queue is full (the sender's to fix: nothing is written); -1 with *error when the database failed. */
int store_signal_put(store *st, const char *session_id, const char *name, const json_t *body, uint64_t taken_by,
                     uint64_t *delivery_seq, bool *handed_before, char **error);
/* The signal for the call at seq that listens to names: the one handed to seq, else the oldest
 * queued of those names, now marked taken by seq. 1 with *body, 0 when none, -1 with *error. */
int store_signal_take(store *st, const char *session_id, uint64_t seq, const char *const *names, size_t n,
                      json_t **body, char **error);
/* Is a signal of one of names queued for the session (or one handed to seq)? 1, 0, -1 with *error. */
int store_signal_waiting(store *st, const char *session_id, uint64_t seq, const char *const *names, size_t n,
                         char **error);
/* A refused resume: what was handed to seq is queued again (it stays the session's); a timeout's
 * sentinel, put under the empty name (which no call listens to), is dropped. */
int store_signal_unhand(store *st, const char *session_id, uint64_t seq, char **error);
/* Whether the signal at delivery_seq has been taken by a call: 1, 0 (queued, or no such row), or
 * -1 with *error. */
int store_signal_taken(store *st, const char *session_id, uint64_t delivery_seq, char **error);

#endif
