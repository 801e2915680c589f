/* store_cluster.c — leases, fencing, the queue and the wake-up hook of a cluster of serve nodes on
 * one store (see store_cluster.h).
 *
 * Owns the tables session_leases (and the index sessions_by_status that the scans use). Runs on
 * the store's connection under the store's lock (store_lock_db), one statement or one transaction
 * at a time, so a node's threads never interleave inside one. Every statement here is portable
 * SQL with `?` placeholders; the places where PostgreSQL wants another form are marked DIALECT.
 * Trusts the store's rows no further than their column types.
 */
#define _GNU_SOURCE
#include "serve/store_cluster.h"
#include "serve/store_signals.h"
#include "util/buf.h"

#include <errno.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

const char STORE_CLUSTER_SCHEMA[] =
    "CREATE TABLE IF NOT EXISTS session_leases ("
    "  session_id TEXT PRIMARY KEY,"
    "  owner TEXT NOT NULL,"
    "  host TEXT NOT NULL,"
    "  pid INTEGER NOT NULL,"
    "  epoch INTEGER NOT NULL,"
    "  expires_ms INTEGER NOT NULL"
    ");"
    "CREATE INDEX IF NOT EXISTS sessions_by_status ON sessions (status, created_at_ms);";

static int fail(sqlite3 *db, const char *what, char **error)
{
    if (error) *error = xasprintf("database: %s: %s", what, sqlite3_errmsg(db));
    return -1;
}

static void bind_text(sqlite3_stmt *s, int i, const char *v)
{
    if (v) sqlite3_bind_text(s, i, v, -1, SQLITE_TRANSIENT);
    else sqlite3_bind_null(s, i);
}

static void bind_json(sqlite3_stmt *s, int i, const json_t *v)
{
    if (!v) {
        sqlite3_bind_null(s, i);
        return;
    }
    size_t n;
    char *text = json_dump(v, JSON_COMPACT, &n);
    sqlite3_bind_text(s, i, text, (int)n, free);
}

/* BEGIN IMMEDIATE / COMMIT / ROLLBACK. DIALECT: PostgreSQL says BEGIN. */
static int tx(sqlite3 *db, const char *sql, char **error)
{
    char *msg = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &msg) == SQLITE_OK) return 0;
    if (error) *error = xasprintf("database: %s: %s", sql, msg ? msg : sqlite3_errmsg(db));
    sqlite3_free(msg);
    return -1;
}

int store_lease_claim(store *st, const char *session_id, const cluster_node *me, int64_t now_ms, int64_t lease_ms,
                      int64_t dead_epoch, int64_t *epoch, char **error)
{
    sqlite3 *db = store_lock_db(st);
    sqlite3_stmt *s = NULL;
    int rc = -1;
    /* One statement: of two nodes claiming at once, one gets the row back. The owner column keeps
     * the last node (a released lease has expires_ms 0). */
    if (sqlite3_prepare_v2(db,
                           "INSERT INTO session_leases (session_id, owner, host, pid, epoch, expires_ms)"
                           " VALUES (?, ?, ?, ?, 1, ?)"
                           " ON CONFLICT (session_id) DO UPDATE SET owner = excluded.owner, host = excluded.host,"
                           " pid = excluded.pid, epoch = session_leases.epoch + 1, expires_ms = excluded.expires_ms"
                           " WHERE session_leases.expires_ms < ? OR session_leases.owner = ?"
                           " OR session_leases.epoch = ?"
                           " RETURNING epoch",
                           -1, &s, NULL) != SQLITE_OK) {
        fail(db, "preparing a lease claim", error);
        goto out;
    }
    bind_text(s, 1, session_id);
    bind_text(s, 2, me->id);
    bind_text(s, 3, me->host);
    sqlite3_bind_int64(s, 4, me->pid);
    sqlite3_bind_int64(s, 5, now_ms + lease_ms);
    sqlite3_bind_int64(s, 6, now_ms);
    bind_text(s, 7, me->id);
    sqlite3_bind_int64(s, 8, dead_epoch);
    int step = sqlite3_step(s);
    if (step == SQLITE_ROW) {
        *epoch = sqlite3_column_int64(s, 0);
        rc = 1;
        step = sqlite3_step(s);
    } else if (step == SQLITE_DONE) {
        rc = 0;
    }
    if (step != SQLITE_DONE) rc = fail(db, "claiming a session's lease", error);
out:
    sqlite3_finalize(s);
    store_unlock_db(st);
    return rc;
}

/* One UPDATE of a lease held by (me, epoch): 1 when it was, 0 when it moved on. */
static int lease_update(store *st, const char *sql, const char *session_id, const cluster_node *me, int64_t epoch,
                        int64_t expires_ms, const char *what, char **error)
{
    sqlite3 *db = store_lock_db(st);
    sqlite3_stmt *s = NULL;
    int rc = -1;
    if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK) {
        fail(db, what, error);
        goto out;
    }
    sqlite3_bind_int64(s, 1, expires_ms);
    bind_text(s, 2, session_id);
    bind_text(s, 3, me->id);
    sqlite3_bind_int64(s, 4, epoch);
    if (sqlite3_step(s) != SQLITE_DONE) fail(db, what, error);
    else rc = sqlite3_changes(db) > 0;
out:
    sqlite3_finalize(s);
    store_unlock_db(st);
    return rc;
}

int store_lease_renew(store *st, const char *session_id, const cluster_node *me, int64_t epoch, int64_t expires_ms,
                      char **error)
{
    return lease_update(st,
                        "UPDATE session_leases SET expires_ms = ? WHERE session_id = ? AND owner = ? AND epoch = ?",
                        session_id, me, epoch, expires_ms, "renewing a session's lease", error);
}

int store_lease_release(store *st, const char *session_id, const cluster_node *me, int64_t epoch, char **error)
{
    return lease_update(st,
                        "UPDATE session_leases SET expires_ms = ? WHERE session_id = ? AND owner = ? AND epoch = ?",
                        session_id, me, epoch, 0, "releasing a session's lease", error);
}

char *store_lease_owner(store *st, const char *session_id)
{
    sqlite3 *db = store_lock_db(st);
    sqlite3_stmt *s = NULL;
    char *owner = NULL;
    if (sqlite3_prepare_v2(db, "SELECT owner FROM session_leases WHERE session_id = ?", -1, &s, NULL) == SQLITE_OK) {
        bind_text(s, 1, session_id);
        if (sqlite3_step(s) == SQLITE_ROW && sqlite3_column_text(s, 0))
            owner = xstrdup((const char *)sqlite3_column_text(s, 0));
    }
    sqlite3_finalize(s);
    store_unlock_db(st);
    return owner;
}

/* The condition every fenced write adds: the lease is still (me, epoch). */
#define HELD "EXISTS (SELECT 1 FROM session_leases WHERE session_id = ? AND owner = ? AND epoch = ?)"

int store_append_record_fenced(store *st, const char *session_id, uint64_t seq, int64_t pos, const char *record_json,
                               const cluster_node *me, int64_t epoch, char **error)
{
    sqlite3 *db = store_lock_db(st);
    sqlite3_stmt *s = NULL;
    int rc = -1;
    /* the insert and the check are one statement: no write of a stale owner slips in between */
    if (sqlite3_prepare_v2(db, "INSERT INTO records (session_id, seq, record, pos) SELECT ?, ?, ?, ? WHERE " HELD, -1,
                           &s, NULL) != SQLITE_OK) {
        fail(db, "preparing a record", error);
        goto out;
    }
    bind_text(s, 1, session_id);
    sqlite3_bind_int64(s, 2, (sqlite3_int64)seq);
    bind_text(s, 3, record_json);
    sqlite3_bind_int64(s, 4, pos);
    bind_text(s, 5, session_id);
    bind_text(s, 6, me->id);
    sqlite3_bind_int64(s, 7, epoch);
    if (sqlite3_step(s) != SQLITE_DONE) fail(db, "storing a record", error);
    else rc = sqlite3_changes(db) > 0 ? 0 : -2;
out:
    sqlite3_finalize(s);
    store_unlock_db(st);
    return rc;
}

int store_settle_fenced(store *st, const session_row *r, const cluster_node *me, int64_t epoch, bool release,
                        char **error)
{
    sqlite3 *db = store_lock_db(st);
    sqlite3_stmt *s = NULL;
    int rc = -1;
    if (tx(db, "BEGIN IMMEDIATE", error) < 0) goto out;
    if (sqlite3_prepare_v2(db,
                           "UPDATE sessions SET status = ?, output = ?, error = ?, pending = ?, pending_approval = ?,"
                           " approvals = ?, call_count = ? WHERE id = ? AND (status <> 'cancelled' OR ? = 'cancelled')"
                           " AND " HELD,
                           -1, &s, NULL) != SQLITE_OK) {
        fail(db, "preparing a session update", error);
        goto rollback;
    }
    bind_text(s, 1, r->status);
    bind_json(s, 2, r->output);
    bind_text(s, 3, r->error);
    bind_json(s, 4, r->pending);
    bind_json(s, 5, r->pending_approval);
    bind_json(s, 6, r->approvals);
    sqlite3_bind_int64(s, 7, (sqlite3_int64)r->call_count);
    bind_text(s, 8, r->id);
    bind_text(s, 9, r->status);
    bind_text(s, 10, r->id);
    bind_text(s, 11, me->id);
    sqlite3_bind_int64(s, 12, epoch);
    if (sqlite3_step(s) != SQLITE_DONE) {
        fail(db, "updating a session", error);
        goto rollback;
    }
    if (sqlite3_changes(db) == 0) {
        sqlite3_finalize(s), s = NULL;
        /* why not: the lease moved on, or a cancel came first */
        if (sqlite3_prepare_v2(db, "SELECT 1 FROM sessions WHERE id = ? AND " HELD, -1, &s, NULL) != SQLITE_OK) {
            fail(db, "reading a lease", error);
            goto rollback;
        }
        bind_text(s, 1, r->id);
        bind_text(s, 2, r->id);
        bind_text(s, 3, me->id);
        sqlite3_bind_int64(s, 4, epoch);
        int step = sqlite3_step(s);
        rc = step == SQLITE_ROW ? -3 : -2;
        tx(db, "ROLLBACK", NULL);
        goto out;
    }
    sqlite3_finalize(s), s = NULL;
    if (release) {
        if (sqlite3_prepare_v2(db, "UPDATE session_leases SET expires_ms = 0 WHERE session_id = ? AND owner = ? AND epoch = ?",
                               -1, &s, NULL) != SQLITE_OK) {
            fail(db, "preparing a lease release", error);
            goto rollback;
        }
        bind_text(s, 1, r->id);
        bind_text(s, 2, me->id);
        sqlite3_bind_int64(s, 3, epoch);
        if (sqlite3_step(s) != SQLITE_DONE) {
            fail(db, "releasing a lease", error);
            goto rollback;
        }
    }
    if (tx(db, "COMMIT", error) < 0) goto rollback;
    rc = 0;
    goto out;
rollback:
    tx(db, "ROLLBACK", NULL);
out:
    sqlite3_finalize(s);
    store_unlock_db(st);
    return rc;
}

char *store_session_status(store *st, const char *session_id, char **error)
{
    sqlite3 *db = store_lock_db(st);
    sqlite3_stmt *s = NULL;
    char *status = NULL;
    if (sqlite3_prepare_v2(db, "SELECT status FROM sessions WHERE id = ?", -1, &s, NULL) != SQLITE_OK) {
        fail(db, "reading a session's status", error);
    } else {
        bind_text(s, 1, session_id);
        int step = sqlite3_step(s);
        if (step == SQLITE_ROW && sqlite3_column_text(s, 0)) status = xstrdup((const char *)sqlite3_column_text(s, 0));
        else if (step != SQLITE_ROW && step != SQLITE_DONE) fail(db, "reading a session's status", error);
    }
    sqlite3_finalize(s);
    store_unlock_db(st);
    return status;
}

int store_session_cas(store *st, const char *session_id, const char *from, const char *to, const char *error_text,
                      char **error)
{
    sqlite3 *db = store_lock_db(st);
    sqlite3_stmt *s = NULL;
    int rc = -1;
    if (sqlite3_prepare_v2(db, "UPDATE sessions SET status = ?, error = COALESCE(?, error) WHERE id = ? AND status = ?",
                           -1, &s, NULL) != SQLITE_OK) {
        fail(db, "preparing a status change", error);
        goto out;
    }
    bind_text(s, 1, to);
    bind_text(s, 2, error_text);
    bind_text(s, 3, session_id);
    bind_text(s, 4, from);
    if (sqlite3_step(s) != SQLITE_DONE) fail(db, "changing a session's status", error);
    else rc = sqlite3_changes(db) > 0;
out:
    sqlite3_finalize(s);
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
    sqlite3 *db = store_lock_db(st);
    sqlite3_stmt *s = NULL;
    orphan *list = NULL;
    size_t n = 0, cap = 0;
    int rc = 0;
    /* the candidates: running, and without a live lease, or with one of this host (its pid is
     * checked below). DIALECT: nothing to lock here; the claim itself is the atomic step. */
    if (sqlite3_prepare_v2(db,
                           "SELECT s.id, l.host, l.pid, l.epoch, l.expires_ms FROM sessions s"
                           " LEFT JOIN session_leases l ON l.session_id = s.id"
                           " WHERE s.status = 'running'"
                           " AND ((l.session_id IS NULL AND s.created_at_ms < ?) OR l.expires_ms < ? OR l.host = ?)"
                           " ORDER BY s.created_at_ms",
                           -1, &s, NULL) != SQLITE_OK) {
        rc = fail(db, "preparing the scan for orphaned sessions", error);
        goto out;
    }
    /* a session without a lease row is taken once it is older than a lease: its node may be
     * between storing it and claiming it */
    sqlite3_bind_int64(s, 1, now_ms - lease_ms);
    sqlite3_bind_int64(s, 2, now_ms);
    bind_text(s, 3, me->host);
    int step;
    while (n < max && (step = sqlite3_step(s)) == SQLITE_ROW) {
        const char *id = (const char *)sqlite3_column_text(s, 0);
        bool none = sqlite3_column_type(s, 3) == SQLITE_NULL;
        int64_t epoch = sqlite3_column_int64(s, 3), expires = sqlite3_column_int64(s, 4);
        int64_t dead = -1;
        if (!id) continue;
        if (!none && expires >= now_ms) {
            if (!gone(me, (const char *)sqlite3_column_text(s, 1), sqlite3_column_int64(s, 2))) continue;
            dead = epoch;
        }
        if (n == cap) cap = cap ? cap * 2 : 16, list = xrealloc(list, cap * sizeof *list);
        list[n++] = (orphan){xstrdup(id), dead};
    }
    if (n < max && step != SQLITE_DONE) rc = fail(db, "scanning for orphaned sessions", error);
out:
    sqlite3_finalize(s);
    store_unlock_db(st);
    for (size_t i = 0; i < n; i++) {
        if (rc == 0) fn(ctx, list[i].id, list[i].dead_epoch);
        free(list[i].id);
    }
    free(list);
    return rc;
}

int store_queued_oldest(store *st, size_t max, char ***ids, size_t *n, char **error)
{
    *ids = NULL;
    *n = 0;
    sqlite3 *db = store_lock_db(st);
    sqlite3_stmt *s = NULL;
    int rc = 0;
    /* DIALECT: PostgreSQL adds FOR UPDATE SKIP LOCKED (inside the claim's transaction), so nodes
     * scanning at once take different rows; here the status compare-and-set decides. */
    if (sqlite3_prepare_v2(db, "SELECT id FROM sessions WHERE status = 'queued' ORDER BY created_at_ms LIMIT ?", -1, &s,
                           NULL) != SQLITE_OK) {
        rc = fail(db, "preparing the scan for queued sessions", error);
        goto out;
    }
    sqlite3_bind_int64(s, 1, (sqlite3_int64)max);
    int step;
    char **list = xcalloc(max ? max : 1, sizeof *list);
    while ((step = sqlite3_step(s)) == SQLITE_ROW)
        if (sqlite3_column_text(s, 0) && *n < max) list[(*n)++] = xstrdup((const char *)sqlite3_column_text(s, 0));
    if (step != SQLITE_DONE) rc = fail(db, "scanning for queued sessions", error);
    *ids = list;
out:
    sqlite3_finalize(s);
    store_unlock_db(st);
    return rc;
}
