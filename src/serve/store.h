/* store.h — the server's durable state: sessions, their call logs, memory, in SQLite or PostgreSQL.
 *
 * One database (docs/storage.md): a SQLite file (CHIDORI_DB_PATH, or sessions.sqlite3 in the state
 * folder beside the agent) in WAL mode with synchronous=FULL, or a PostgreSQL database
 * (--db / CHIDORI_DB_URL), reached through db.h; either way a record is durable when
 * store_append_record returns and a kill -9 of the server loses nothing that was acknowledged.
 * The schema is versioned (SQLite: PRAGMA user_version; PostgreSQL: the table schema_version);
 * a database of a newer version is refused rather than misread.
 *
 * Tables: sessions (one row per session: everything its view shows plus what a re-run needs —
 * seed, clock start, run id, policy profile, approvals, the pending call), records
 * (session_id, seq, record JSON, pos: its place in the order records were appended) and memory (chidori.memory: namespace, key, value JSON). JSON columns are stored as compact text and parsed back with
 * limits: the file is trusted no more than a records.jsonl would be.
 *
 * Thread-safe: one connection, used under the store's own lock. Several servers may share one
 * PostgreSQL database: every read-then-write runs in a transaction holding the writer lock.
 */
#ifndef CHIDORI_SERVE_STORE_H
#define CHIDORI_SERVE_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/json.h"

#define STORE_SCHEMA_VERSION 2 /* 2: records.pos, the append position (a version-1 file is upgraded) */

typedef struct store store;
struct db; /* serve/db.h */

/* A session as stored. Strings and JSON values are owned by the row (session_row_clear). */
typedef struct session_row {
    char *id;
    char run_id[37];
    char *status;            /* running | completed | failed | cancelled | paused | awaitingapproval | queued */
    json_t *input;           /* object */
    json_t *output;          /* or NULL */
    char *error;             /* or NULL */
    json_t *pending;         /* the pending call {seq, function, args, open_calls}, or NULL */
    json_t *pending_approval; /* {target, args, reason}, or NULL */
    char *policy_profile;    /* or NULL */
    json_t *approvals;       /* [{target, args}] */
    uint64_t seed;
    int64_t clock_start_ms;
    int64_t created_at_ms;
    char *replayed_from;     /* or NULL */
    size_t call_count;       /* records in the log when the session last changed state */
    char traceparent[56];    /* the W3C trace context it was created under, or "" (table session_traces) */
} session_row;

void session_row_clear(session_row *r);

/* Open (creating it and its folder if needed) and check the schema: target is a SQLite file path
 * or a postgresql:// URL (db.h). NULL with *error. */
store *store_open(const char *target, char **error);
/* The database as it may be printed: the path, or the URL without its password. */
const char *store_describe(const store *st);
/* What store_open was given, to open another connection to the same database (a listener); it
 * may hold a password: never print it (store_describe is for messages). */
const char *store_target(const store *st);
/* Does the store deliver LISTEN/NOTIFY events across processes (PostgreSQL)? */
bool store_is_shared(const store *st);
void store_close(store *st);

/* Insert a new session; with copy_records_from set, that session's records are copied to it in
 * the same transaction. -1 with *error (a duplicate id says so: *duplicate is set). */
int store_insert_session(store *st, const session_row *r, const char *copy_records_from, bool *duplicate,
                         char **error);
/* A step of the caller's inside a store transaction, on its connection (store_insert_session_with):
 * 0, or -1 with *error (the transaction is rolled back). */
typedef struct store_tx_step {
    int (*fn)(struct db *d, void *arg, char **error);
    void *arg;
} store_tx_step;
/* The same, and in the same transaction: the session's call log given (records: an array of record
 * objects, already checked by the call-log loader; pos is their order, the first record of a seq is
 * kept), its snapshot manifest (see store_put_manifest) and a step of the caller's (a new session's
 * lease: store_claim_step). Any may be NULL. */
int store_insert_session_with(store *st, const session_row *r, const char *copy_records_from, const json_t *records,
                              const json_t *manifest, const store_tx_step *also, bool *duplicate, char **error);
/* Point a session at a manifest (as store_put_manifest) inside a transaction of the caller's,
 * which holds the store's lock (store_lock_db): store_settle_fenced. */
int store_put_manifest_locked(store *st, const char *session_id, const json_t *manifest, char **error);
/* Write every mutable field of a session (status, output, error, pending, approvals ...). */
int store_update_session(store *st, const session_row *r, char **error);
/* The same, only while the stored status is still from (NULL: whatever it is): 1 written, 0 not
 * (another node changed it meanwhile: a cancel or a denial, which change a status without the
 * lease), -1 with *error. */
int store_update_session_if(store *st, const session_row *r, const char *from, char **error);
/* Every session, oldest first (created_at_ms, then insertion order), one row at a time: fn is
 * called with each row (it may take the row's contents over, leaving *r cleared) and nothing is
 * kept between rows. fn runs under the store's lock: it must not call the store, nor take a lock
 * that another thread holds while it calls the store. A row that cannot be read is reported
 * through *error (and ends the walk). */
int store_load_sessions(store *st, void (*fn)(void *ctx, session_row *r), void *ctx, char **error);

/* One session by id: 1 with *out (the caller clears it), 0 when there is none, -1 with *error
 * (the database failed, or the row does not hold up: checked as store_load_sessions checks each). */
int store_get_session(store *st, const char *id, session_row *out, char **error);

/* The call log of a session: an array of record objects in seq order. NULL with *error. */
json_t *store_load_records(store *st, const char *session_id, char **error);
/* Append one record (its JSON text) at append position pos (larger than any of the session's
 * before), durable when this returns. */
int store_append_record(store *st, const char *session_id, uint64_t seq, int64_t pos, const char *record_json,
                        char **error);

/* A session's stored log measured: records, bytes (each record's JSON text and a newline, as it
 * would be a line of records.jsonl) and the largest append position (0: none). */
typedef struct store_log_stats {
    size_t records;
    uint64_t bytes;
    int64_t last_pos;
} store_log_stats;
int store_record_stats(store *st, const char *session_id, store_log_stats *out, char **error);
/* Its records and largest append position only, read from an index (cheap for a long log): enough
 * to tell whether another writer went on with the session since they were taken (a resume that
 * went through appends its answer and more; one that was refused leaves the log as it was). */
int store_log_head(store *st, const char *session_id, size_t *records, int64_t *last_pos, char **error);

/* At most limit records of a session appended after position after_pos, in the order they were
 * appended (a stream's next page); *last_pos is set to the position of the last one returned
 * (untouched when none is). NULL with *error. */
json_t *store_load_records_page(store *st, const char *session_id, int64_t after_pos, size_t limit, int64_t *last_pos,
                                char **error);

/* chidori.memory in the database (a host_memory_store op; ctx is the store): one table of
 * (namespace, key, value JSON), listed in insertion order, at most STORE_MEMORY_MAX_BYTES in all.
 * Each operation is one statement, so concurrent sessions never lose each other's writes. */
#define STORE_MEMORY_MAX_BYTES ((size_t)64 << 20)
int store_memory_op(void *ctx, const char *action, const char *ns, const char *key, const json_t *value,
                    const char *prefix, json_t **result, char **error);

/* A session's snapshot manifest (runner/manifest.h), in the table session_manifests: stored (or
 * replaced) at its creation, when its run pauses or ends (the modules it loaded) and when a resume
 * accepts a changed source. get: 1 with *out, 0 when the session has none (stored by an older
 * chidori), -1 with *error, STORE_MANIFEST_UNREADABLE with *error when the stored body is not a
 * JSON object (or too large to read). */
#define STORE_MANIFEST_UNREADABLE (-2)
int store_put_manifest(store *st, const char *session_id, const json_t *manifest, char **error);
int store_get_manifest(store *st, const char *session_id, json_t **out, char **error);

/* Undo what a refused resume appended (sessions.c: a replay that diverged before the run went
 * live): the records appended after position after_pos, when they are at most the answer at seq
 * (seq 0: an approval, which appends no answer, so only none is accepted).
 * 0 (none), 1 (the answer removed, *bytes its size as store_record_stats counts it), 2 (more than
 * the answer: nothing removed), or -1 with *error. One transaction. */
int store_drop_unanswered(store *st, const char *session_id, int64_t after_pos, uint64_t seq, uint64_t *bytes,
                          char **error);

#endif
