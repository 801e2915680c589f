/* store_cluster.c — leases, fencing and the queue of a cluster of serve nodes on one store (see
 * store_cluster.h).
 *
 * Owns the table session_leases (and the index sessions_by_status that the scans use). Runs on
 * the store's connection under the store's lock (store_lock_db), one statement or one transaction
 * at a time, so a node's threads never interleave inside one. Every statement is written once on
 * db.h and runs on SQLite and PostgreSQL; the one dialect point (FOR UPDATE SKIP LOCKED) comes from
 * db_sql(). Trusts the store's rows no further than their column types.
 */
#define _GNU_SOURCE
#include "serve/store_cluster.h"
#include "serve/db.h"
#include "serve/store_signals.h"
#include "util/buf.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>



static void bind_text(db_stmt *s, int i, const char *v) { db_bind_text(s, i, v, (size_t)-1); }

/* The lease upsert: of two nodes claiming at once, one gets the row back. The owner column keeps
 * the last node (a released lease has expires_ms 0). */
static const char CLAIM_SQL[] =
    "INSERT INTO session_leases (session_id, owner, host, pid, epoch, expires_ms)"
    " VALUES (?1, ?2, ?3, ?4, 1, ?5)"
    " ON CONFLICT (session_id) DO UPDATE SET owner = excluded.owner, host = excluded.host,"
    " pid = excluded.pid, epoch = session_leases.epoch + 1, expires_ms = excluded.expires_ms"
    " WHERE session_leases.expires_ms < ?6 OR session_leases.owner = ?2 OR session_leases.epoch = ?7"
    " RETURNING epoch";

/* One claim on d (the lock held): 1 with *epoch, 0, -1 with *error. */
static int claim(db *d, const char *session_id, const cluster_node *me, int64_t now_ms, int64_t lease_ms,
                 int64_t dead_epoch, int64_t *epoch, char **error)
{
    db_stmt *s = db_prepare_static(d, CLAIM_SQL, error);
    if (!s) return db_failed("preparing a lease claim", error);
    bind_text(s, 1, session_id);
    bind_text(s, 2, me->id);
    bind_text(s, 3, me->host);
    db_bind_int64(s, 4, me->pid);
    db_bind_int64(s, 5, now_ms + lease_ms);
    db_bind_int64(s, 6, now_ms);
    db_bind_int64(s, 7, dead_epoch);
    int rc = db_step(s, error);
    if (rc == 1) {
        *epoch = db_column_int64(s, 0);
        if (db_step(s, error) < 0) rc = -1;
    }
    if (rc < 0) db_failed("claiming a session's lease", error);
    db_done(s);
    return rc;
}

int store_claim_step(db *d, void *arg, char **error)
{
    store_claim *c = arg;
    int rc = claim(d, c->session_id, c->me, c->now_ms, c->lease_ms, -1, &c->epoch, error);
    if (rc == 0) *error = xasprintf("session %s: its lease is held by another node", c->session_id);
    return rc == 1 ? 0 : -1;
}

int store_lease_claim(store *st, const char *session_id, const cluster_node *me, int64_t now_ms, int64_t lease_ms,
                      int64_t dead_epoch, int64_t *epoch, char **error)
{
    db *d = store_lock_db(st);
    int rc = claim(d, session_id, me, now_ms, lease_ms, dead_epoch, epoch, error);
    store_unlock_db(st);
    return rc;
}

/* One UPDATE of a lease held by (me, epoch) and not released: 1 when it was, 0 when it moved on or
 * was released. A renewal races the settle that releases the lease (the renewer read the run as
 * live just before): the released lease (expires_ms 0) stays released, so no other node waits a
 * whole lease for a session that has settled. */
static int lease_update(store *st, const char *session_id, const cluster_node *me, int64_t epoch, int64_t expires_ms,
                        const char *what, char **error)
{
    db *d = store_lock_db(st);
    int rc = -1;
    db_stmt *s = db_prepare_static(d,
                                   "UPDATE session_leases SET expires_ms = ?1 WHERE session_id = ?2 AND owner = ?3"
                                   " AND epoch = ?4 AND expires_ms > 0",
                                   error);
    if (!s) {
        db_failed(what, error);
        goto out;
    }
    db_bind_int64(s, 1, expires_ms);
    bind_text(s, 2, session_id);
    bind_text(s, 3, me->id);
    db_bind_int64(s, 4, epoch);
    if (db_step(s, error) < 0) db_failed(what, error);
    else rc = db_changes(d) > 0;
    db_done(s);
out:
    store_unlock_db(st);
    return rc;
}

int store_lease_renew(store *st, const char *session_id, const cluster_node *me, int64_t epoch, int64_t expires_ms,
                      char **error)
{
    return lease_update(st, session_id, me, epoch, expires_ms, "renewing a session's lease", error);
}

int store_lease_release(store *st, const char *session_id, const cluster_node *me, int64_t epoch, char **error)
{
    return lease_update(st, session_id, me, epoch, 0, "releasing a session's lease", error);
}

char *store_lease_owner(store *st, const char *session_id)
{
    db *d = store_lock_db(st);
    char *owner = NULL, *ignored = NULL;
    db_stmt *s = db_prepare_static(d, "SELECT owner FROM session_leases WHERE session_id = ?1", &ignored);
    if (s) {
        bind_text(s, 1, session_id);
        if (db_step(s, &ignored) == 1 && db_column_text(s, 0, NULL)) owner = xstrdup(db_column_text(s, 0, NULL));
    }
    db_done(s);
    free(ignored);
    store_unlock_db(st);
    return owner;
}

/* The condition every fenced write adds: the lease is still (me, epoch) — the owner and epoch
 * bound at ?OWNER and ?EPOCH, the session at ?SESSION. LOCK is the dialect's row lock: on
 * PostgreSQL (read committed) " FOR SHARE", so the lease row is locked until the write commits — a
 * claim waits for a stale owner's write in flight, and a write that waited on a claim re-reads the
 * row and finds the lease moved on; without it a stale owner's record could commit after a claim,
 * unseen by the new owner that had read the log, and its effect be performed twice. On SQLite ""
 * (one writer at a time: the claim and the write cannot interleave). */
#define HELD_LOCK(SESSION, OWNER, EPOCH, LOCK)                                                                    \
    "EXISTS (SELECT 1 FROM session_leases WHERE session_id = " SESSION " AND owner = " OWNER " AND epoch = " EPOCH \
    LOCK ")"
#define HELD(SESSION, OWNER, EPOCH) HELD_LOCK(SESSION, OWNER, EPOCH, "")
#define HELD_SHARE(SESSION, OWNER, EPOCH) HELD_LOCK(SESSION, OWNER, EPOCH, " FOR SHARE")
/* A statement text per dialect (both literals, as db_prepare_static wants). */
#define BY_DIALECT(d, SQLITE_TEXT, PG_TEXT) (db_kind_of(d) == DB_POSTGRES ? (PG_TEXT) : (SQLITE_TEXT))

/* d under the store's lock, outside a transaction (or inside one: delivered at its commit). */
static void announce(db *d, const char *session_id)
{
    char *error = NULL;
    if (db_notify(d, STORE_EVENTS_CHANNEL, session_id, &error) < 0) free(error); /* the poll catches up */
}

void store_announce(store *st, const char *session_id)
{
    announce(store_lock_db(st), session_id);
    store_unlock_db(st);
}

int store_notify(store *st, const char *channel, const char *payload)
{
    char *error = NULL;
    int rc = db_notify(store_lock_db(st), channel, payload, &error);
    if (rc < 0) free(error); /* a stream elsewhere misses it */
    store_unlock_db(st);
    return rc < 0 ? -1 : 0;
}

int store_append_record_fenced(store *st, const char *session_id, uint64_t seq, int64_t pos, const char *record_json,
                               const cluster_node *me, int64_t epoch, char **error)
{
    db *d = store_lock_db(st);
    int rc = -1;
    /* the insert and the check are one statement, the lease row locked on PostgreSQL (HELD_SHARE): no
     * write of a stale owner slips in between */
    db_stmt *s = db_prepare_static(
        d,
        BY_DIALECT(d,
                   "INSERT INTO records (session_id, seq, record, pos) SELECT ?1, ?2, ?3, ?4 WHERE " HELD("?1", "?5", "?6"),
                   "INSERT INTO records (session_id, seq, record, pos) SELECT ?1, ?2, ?3, ?4 WHERE "
                   HELD_SHARE("?1", "?5", "?6")),
        error);
    if (!s) {
        db_failed("preparing a record", error);
        goto out;
    }
    bind_text(s, 1, session_id);
    db_bind_int64(s, 2, (int64_t)seq);
    bind_text(s, 3, record_json);
    db_bind_int64(s, 4, pos);
    bind_text(s, 5, me->id);
    db_bind_int64(s, 6, epoch);
    if (db_step(s, error) < 0) db_failed("storing a record", error);
    else rc = db_changes(d) > 0 ? 0 : -2;
    db_done(s);
    if (rc == 0) announce(d, session_id);
out:
    store_unlock_db(st);
    return rc;
}

int store_settle_fenced(store *st, const session_row *r, const cluster_node *me, int64_t epoch, bool release,
                        const json_t *manifest, char **error)
{
    db *d = store_lock_db(st);
    db_stmt *s = NULL;
    int rc = -1;
    if (db_begin(d, DB_TX_IMMEDIATE, error) < 0) {
        db_failed("settling a session", error);
        goto out;
    }
#define SETTLE_SQL(HELD_FORM)                                                                                      \
    "UPDATE sessions SET status = ?1, output = ?2, error = ?3, pending = ?4, pending_approval = ?5,"                  \
    " approvals = ?6, call_count = ?7 WHERE id = ?8"                                                               \
    " AND (status <> 'cancelled' OR CAST(?1 AS TEXT) = 'cancelled') AND " HELD_FORM("?8", "?9", "?10")
    s = db_prepare_static(d, BY_DIALECT(d, SETTLE_SQL(HELD), SETTLE_SQL(HELD_SHARE)), error);
#undef SETTLE_SQL
    if (!s) {
        db_failed("preparing a session update", error);
        goto rollback;
    }
    bind_text(s, 1, r->status);
    db_bind_json(s, 2, r->output);
    bind_text(s, 3, r->error);
    db_bind_json(s, 4, r->pending);
    db_bind_json(s, 5, r->pending_approval);
    db_bind_json(s, 6, r->approvals);
    db_bind_int64(s, 7, (int64_t)r->call_count);
    bind_text(s, 8, r->id);
    bind_text(s, 9, me->id);
    db_bind_int64(s, 10, epoch);
    if (db_step(s, error) < 0) {
        db_failed("updating a session", error);
        goto rollback;
    }
    db_done(s), s = NULL;
    if (db_changes(d) == 0) {
        /* why not: the lease moved on, or a cancel came first */
        s = db_prepare_static(d, "SELECT 1 FROM sessions WHERE id = ?1 AND " HELD("?1", "?2", "?3"), error);
        if (!s) {
            db_failed("reading a lease", error);
            goto rollback;
        }
        bind_text(s, 1, r->id);
        bind_text(s, 2, me->id);
        db_bind_int64(s, 3, epoch);
        int step = db_step(s, error);
        if (step < 0) {
            db_failed("reading a lease", error);
            goto rollback;
        }
        rc = step == 1 ? -3 : -2;
        db_rollback(d);
        goto out;
    }
    if (release) {
        s = db_prepare_static(d, "UPDATE session_leases SET expires_ms = 0 WHERE session_id = ?1 AND owner = ?2"
                                 " AND epoch = ?3", error);
        if (!s) {
            db_failed("preparing a lease release", error);
            goto rollback;
        }
        bind_text(s, 1, r->id);
        bind_text(s, 2, me->id);
        db_bind_int64(s, 3, epoch);
        if (db_step(s, error) < 0) {
            db_failed("releasing a lease", error);
            goto rollback;
        }
        db_done(s), s = NULL;
    }
    if (manifest && store_put_manifest_locked(st, r->id, manifest, error) < 0) goto rollback;
    announce(d, r->id); /* sent when the transaction commits */
    if (db_commit(d, error) < 0) {
        db_failed("settling a session", error);
        goto rollback;
    }
    rc = 0;
    goto out;
rollback:
    db_rollback(d);
out:
    db_done(s);
    store_unlock_db(st);
    return rc;
}

char *store_session_status(store *st, const char *session_id, uint64_t *pending_seq, char **error)
{
    db *d = store_lock_db(st);
    char *status = NULL;
    if (pending_seq) *pending_seq = 0;
    db_stmt *s = db_prepare_static(d, "SELECT status, pending FROM sessions WHERE id = ?1", error);
    if (!s) {
        db_failed("reading a session's status", error);
    } else {
        bind_text(s, 1, session_id);
        int step = db_step(s, error);
        if (step == 1 && db_column_text(s, 0, NULL)) status = xstrdup(db_column_text(s, 0, NULL));
        else if (step < 0) db_failed("reading a session's status", error);
        size_t len = 0;
        const char *pending = step == 1 && pending_seq ? db_column_text(s, 1, &len) : NULL;
        if (pending) { /* the store wrote it (a JSON object): its seq, or 0 */
            json_error jerr;
            json_t *p = json_parse(pending, len, NULL, &jerr);
            const json_t *seq = json_object_get(p, "seq");
            if (seq && seq->type == JSON_NUMBER && seq->u.number >= 1 && seq->u.number < 9007199254740992.0)
                *pending_seq = (uint64_t)seq->u.number;
            json_free(p);
        }
    }
    db_done(s);
    store_unlock_db(st);
    return status;
}

int store_session_cas(store *st, const char *session_id, const char *from, const char *to, const char *error_text,
                      char **error)
{
    db *d = store_lock_db(st);
    int rc = -1;
    db_stmt *s = db_prepare_static(
        d, "UPDATE sessions SET status = ?1, error = COALESCE(CAST(?2 AS TEXT), error) WHERE id = ?3 AND status = ?4",
        error);
    if (!s) {
        db_failed("preparing a status change", error);
        goto out;
    }
    bind_text(s, 1, to);
    bind_text(s, 2, error_text);
    bind_text(s, 3, session_id);
    bind_text(s, 4, from);
    if (db_step(s, error) < 0) db_failed("changing a session's status", error);
    else rc = db_changes(d) > 0;
    db_done(s);
out:
    store_unlock_db(st);
    return rc;
}

/* Is the process pid of this host gone? (A pid of another host says nothing.) */
static bool gone(const cluster_node *me, const char *host, int64_t pid)
{
    if (!host || strcmp(host, me->host) != 0 || pid <= 0 || pid == me->pid || pid > 0x7fffffff) return false;
    return kill((pid_t)pid, 0) < 0 && errno == ESRCH;
}

typedef struct orphan {
    char *id;
    int64_t dead_epoch;
} orphan;

int store_lease_orphans(store *st, const cluster_node *me, int64_t now_ms, int64_t lease_ms, size_t max,
                        void (*fn)(void *ctx, const char *id, int64_t dead_epoch), void *ctx, char **error)
{
    db *d = store_lock_db(st);
    orphan *list = NULL;
    size_t n = 0, cap = 0;
    int rc = 0;
    /* the candidates: running, and without a live lease, or with one of this host (its pid is
     * checked below). Nothing is locked here: the claim itself is the atomic step. A session
     * without a lease row is taken once it is older than a lease: its node may be between storing
     * it and claiming it. */
    db_stmt *s = db_prepare_static(d,
                                   "SELECT s.id, l.host, l.pid, l.epoch, l.expires_ms FROM sessions s"
                                   " LEFT JOIN session_leases l ON l.session_id = s.id"
                                   " WHERE s.status = 'running'"
                                   " AND ((l.session_id IS NULL AND s.created_at_ms < ?1) OR l.expires_ms < ?2"
                                   " OR l.host = ?3)"
                                   " ORDER BY s.created_at_ms",
                                   error);
    if (!s) {
        rc = db_failed("preparing the scan for orphaned sessions", error);
        goto out;
    }
    db_bind_int64(s, 1, now_ms - lease_ms);
    db_bind_int64(s, 2, now_ms);
    bind_text(s, 3, me->host);
    int step = 0;
    while (n < max && (step = db_step(s, error)) == 1) {
        const char *id = db_column_text(s, 0, NULL);
        bool none = db_column_null(s, 3);
        int64_t epoch = db_column_int64(s, 3), expires = db_column_int64(s, 4);
        int64_t dead = -1;
        if (!id) continue;
        if (!none && expires >= now_ms) {
            if (!gone(me, db_column_text(s, 1, NULL), db_column_int64(s, 2))) continue;
            dead = epoch;
        }
        if (n == cap) cap = cap ? cap * 2 : 16, list = xrealloc(list, cap * sizeof *list);
        list[n++] = (orphan){xstrdup(id), dead};
    }
    if (step < 0) rc = db_failed("scanning for orphaned sessions", error);
    db_done(s);
out:
    store_unlock_db(st);
    for (size_t i = 0; i < n; i++) {
        if (rc == 0) fn(ctx, list[i].id, list[i].dead_epoch);
        free(list[i].id);
    }
    free(list);
    return rc;
}

/* The queue's scan, whose text depends on the dialect (db_sql, the one dialect point): built once
 * per dialect and kept for the process, so the driver can keep its statement parsed
 * (db_prepare_static keys statements by the text's address). */
static const char *queued_scan_sql(const db *d, bool pg)
{
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    static char *text[2];
    pthread_mutex_lock(&lock);
    if (!text[pg])
        text[pg] = xasprintf("SELECT id FROM sessions WHERE status = 'queued' ORDER BY created_at_ms LIMIT ?1%s",
                             db_sql(d, DB_SQL_SKIP_LOCKED));
    const char *sql = text[pg];
    pthread_mutex_unlock(&lock);
    return sql;
}

int store_queued_claim(store *st, const cluster_node *me, int64_t now_ms, int64_t lease_ms, size_t max, char ***ids,
                       int64_t **epochs, size_t *n, char **error)
{
    *ids = xcalloc(max ? max : 1, sizeof **ids);
    *epochs = xcalloc(max ? max : 1, sizeof **epochs);
    *n = 0;
    if (!max) return 0;
    db *d = store_lock_db(st);
    db_stmt *s = NULL;
    char **found = xcalloc(max, sizeof *found);
    size_t nfound = 0;
    int rc = -1;
    /* PostgreSQL: an ordinary transaction, the scanned rows locked FOR UPDATE SKIP LOCKED (nodes
     * claiming at once take different sessions); SQLite: the whole database, one writer. */
    bool pg = db_kind_of(d) == DB_POSTGRES;
    if (db_begin(d, pg ? DB_TX_DEFERRED : DB_TX_IMMEDIATE, error) < 0) {
        db_failed("claiming queued sessions", error);
        goto out;
    }
    s = db_prepare_static(d, queued_scan_sql(d, pg), error);
    if (!s) {
        db_failed("preparing the scan for queued sessions", error);
        goto rollback;
    }
    db_bind_int64(s, 1, (int64_t)max);
    int step;
    while ((step = db_step(s, error)) == 1)
        if (db_column_text(s, 0, NULL) && nfound < max) found[nfound++] = xstrdup(db_column_text(s, 0, NULL));
    db_done(s), s = NULL;
    if (step < 0) {
        db_failed("scanning for queued sessions", error);
        goto rollback;
    }
    for (size_t i = 0; i < nfound; i++) {
        int64_t epoch = 0;
        int c = claim(d, found[i], me, now_ms, lease_ms, -1, &epoch, error);
        if (c < 0) goto rollback;
        if (c == 0) continue; /* a lease left from an earlier try is still live: not ours to run */
        s = db_prepare_static(d, "UPDATE sessions SET status = 'running' WHERE id = ?1 AND status = 'queued'", error);
        if (!s) {
            db_failed("preparing a status change", error);
            goto rollback;
        }
        bind_text(s, 1, found[i]);
        if (db_step(s, error) < 0) {
            db_failed("claiming a queued session", error);
            goto rollback;
        }
        db_done(s), s = NULL;
        if (db_changes(d) == 0) continue;
        (*ids)[*n] = found[i], found[i] = NULL;
        (*epochs)[(*n)++] = epoch;
    }
    if (db_commit(d, error) < 0) {
        db_failed("claiming queued sessions", error);
        goto rollback;
    }
    rc = 0;
    goto out;
rollback:
    db_done(s), s = NULL;
    db_rollback(d);
    for (size_t i = 0; i < *n; i++) free((*ids)[i]);
    *n = 0;
out:
    for (size_t i = 0; i < nfound; i++) free(found[i]);
    free(found);
    store_unlock_db(st);
    return rc;
}
