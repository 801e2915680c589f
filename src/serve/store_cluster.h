/* store_cluster.h — what several `chidori serve` nodes share through the store: leases (one owner
 * per running session, fenced by an epoch), the queue of sessions waiting for a node with room,
 * and the wake-up hook a node waits on for another node's records.
 *
 * A lease is a row of session_leases: (session_id, owner node, host, pid, epoch, expires_ms). A
 * node claims a session's lease (the epoch goes up by one) when it is released (expires_ms 0),
 * expired, its own, or held by an epoch the caller saw die (a dead process of its own host); the
 * claim is one conditional upsert with RETURNING, so of two nodes claiming at once exactly one
 * gets a row back. Every write a run makes (a record, its final state) names the owner and epoch
 * it holds and is refused once the lease moved on (fencing): a stale owner cannot write a record
 * nor settle the session.
 *
 * The SQL is written once on db.h (`?` placeholders, ON CONFLICT, RETURNING) and runs on SQLite
 * and PostgreSQL alike; the one dialect point, FOR UPDATE SKIP LOCKED in the queue's claim, comes
 * from db_sql(). How a node waits for another node's changes is in sessions.h
 * (sessions_wake). Runs on the store's connection under its lock (store_lock_db).
 * Trusts nothing read back beyond its types.
 */
#ifndef CHIDORI_SERVE_STORE_CLUSTER_H
#define CHIDORI_SERVE_STORE_CLUSTER_H

#include <stdbool.h>
#include <stdint.h>

#include "serve/store.h"

/* The schema of this file's tables, created when missing (store.c runs it on every open, per
 * dialect, with the other tables added without a version change). */
#define STORE_CLUSTER_SCHEMA_SQLITE                                                                                \
    "CREATE TABLE IF NOT EXISTS session_leases (session_id TEXT PRIMARY KEY, owner TEXT NOT NULL,"                 \
    " host TEXT NOT NULL, pid INTEGER NOT NULL, epoch INTEGER NOT NULL, expires_ms INTEGER NOT NULL);"              \
    "CREATE INDEX IF NOT EXISTS sessions_by_status ON sessions (status, created_at_ms);"
#define STORE_CLUSTER_SCHEMA_PG                                                                                    \
    "CREATE TABLE IF NOT EXISTS session_leases (session_id TEXT PRIMARY KEY, owner TEXT NOT NULL,"                 \
    " host TEXT NOT NULL, pid BIGINT NOT NULL, epoch BIGINT NOT NULL, expires_ms BIGINT NOT NULL);"                 \
    "CREATE INDEX IF NOT EXISTS sessions_by_status ON sessions (status, created_at_ms);"

/* Who a node is: its CHIDORI_NODE_ID, and its host name and pid (a node of the same host sees a
 * dead owner at once rather than after its lease). */
typedef struct cluster_node {
    const char *id;
    const char *host;
    int64_t pid;
} cluster_node;

/* Claim the lease of a session: 1 with *epoch (the new one) when this node owns it now, 0 when
 * another node holds a live lease, -1 with *error. dead_epoch: an epoch the caller saw held by a
 * process now gone (-1: none). */
int store_lease_claim(store *st, const char *session_id, const cluster_node *me, int64_t now_ms, int64_t lease_ms,
                      int64_t dead_epoch, int64_t *epoch, char **error);
/* Renew: 1 while this node still holds (me, epoch), 0 when the lease moved on, -1 with *error. */
int store_lease_renew(store *st, const char *session_id, const cluster_node *me, int64_t epoch, int64_t expires_ms,
                      char **error);
/* Release (expires_ms 0, the owner kept: the view names the node that ran it last). */
/* The channel every node listens to (PostgreSQL LISTEN/NOTIFY): its payload is a session id whose
 * stored state or log changed. */
#define STORE_EVENTS_CHANNEL "chidori_sessions"
#define STORE_QUEUED_EVENT "queued" /* the payload when a session was queued (a session so named only wakes more) */
/* Tell the other nodes that session_id changed (a record appended, settled, queued): a NOTIFY on
 * PostgreSQL, nothing on SQLite. Best effort: a lost one is caught by the nodes' poll. */
void store_announce(store *st, const char *session_id);
/* Send payload on channel (a NOTIFY on PostgreSQL, nothing on SQLite), best effort: prompt events
 * for the other nodes' streams (serve/prompt_notify.h), a node's listener barrier (sessions.c).
 * 0 sent (or nothing to send), -1 not. */
int store_notify(store *st, const char *channel, const char *payload);

int store_lease_release(store *st, const char *session_id, const cluster_node *me, int64_t epoch, char **error);
/* The owner named in a session's lease (malloc'd), or NULL when it has none. */
char *store_lease_owner(store *st, const char *session_id);

/* A new session's lease, claimed in the transaction that stores it (a store_tx_step of
 * store_insert_session_with: {store_claim_step, &claim}); sets claim->epoch. A lease already held
 * by another node (for an id just stored, never) is an error. */
typedef struct store_claim {
    const char *session_id;
    const cluster_node *me;
    int64_t now_ms, lease_ms;
    int64_t epoch;
} store_claim;
int store_claim_step(struct db *d, void *claim, char **error);

/* Append a record only while (me, epoch) holds the session's lease: 0 done, -2 fenced (refused:
 * the lease moved on), -1 with *error. */
int store_append_record_fenced(store *st, const char *session_id, uint64_t seq, int64_t pos, const char *record_json,
                               const cluster_node *me, int64_t epoch, char **error);
/* Store a run's end (the mutable fields of r, and the session's manifest unless NULL) only while
 * (me, epoch) holds the lease, and release it, in one transaction. A session stored as cancelled
 * meanwhile (a cancel on another node) keeps that status unless r says cancelled too. 0 done, -2
 * fenced, -3 cancelled meanwhile (nothing written), -1 with *error (nothing written). */
int store_settle_fenced(store *st, const session_row *r, const cluster_node *me, int64_t epoch, bool release,
                        const json_t *manifest, char **error);

/* A session's status as stored now (malloc'd), NULL when it has none (or with *error). pending_seq
 * (when not NULL): the seq of the call it waits on as stored now, 0 when none (or unreadable). */
char *store_session_status(store *st, const char *session_id, uint64_t *pending_seq, char **error);
/* Compare-and-set of a session's status (and its error text when error_text is not NULL): 1 when
 * it was `from` and is `to` now, 0 when it was not `from`, -1 with *error. */
int store_session_cas(store *st, const char *session_id, const char *from, const char *to, const char *error_text,
                      char **error);

/* Sessions stored as running whose lease may be taken: none (for longer than a lease), released,
 * expired, or held by a process of this host that is gone (checked here with kill(pid, 0)). fn gets each with the epoch
 * it saw dead (-1 otherwise), after the walk (no lock held). At most max of them. */
int store_lease_orphans(store *st, const cluster_node *me, int64_t now_ms, int64_t lease_ms, size_t max,
                        void (*fn)(void *ctx, const char *id, int64_t dead_epoch), void *ctx, char **error);
/* Claim up to max of the oldest queued sessions for this node, in one transaction: each is made
 * `running` and its lease taken (epochs[i] the new epoch). On PostgreSQL the scan locks its rows
 * FOR UPDATE SKIP LOCKED, so nodes claiming at once take different sessions instead of waiting on
 * each other; on SQLite the transaction holds the whole database. *ids (malloc'd, *n of them; the
 * caller frees each and both arrays). */
int store_queued_claim(store *st, const cluster_node *me, int64_t now_ms, int64_t lease_ms, size_t max, char ***ids,
                       int64_t **epochs, size_t *n, char **error);

#endif
