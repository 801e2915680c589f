/* store_signals.c — the sessions' signal mailboxes in the server's database (see store_signals.h),
 * through db.h: the same statements on SQLite and PostgreSQL.
 *
 * Each operation runs under the store's lock and, where it reads then writes, in one transaction
 * holding the writer lock (DB_TX_IMMEDIATE), so two requests, a run's take and a deadline never
 * see half of each other's change — nor do two servers sharing one PostgreSQL database. Trusts
 * nothing read back: bodies are parsed with limits and must be objects.
 */
#define _GNU_SOURCE
#include "serve/store_signals.h"
#include "serve/db.h"
#include "util/buf.h"
#include "util/clock.h"

#include <stdlib.h>
#include <string.h>

static int fail(const char *what, char **error)
{
    char *where = xasprintf("signals: %s", what);
    db_failed(where, error);
    free(where);
    return -1;
}

static json_t *parse_body(db_stmt *s, int col, char **error)
{
    size_t n;
    const char *text = db_column_text(s, col, &n);
    json_limits lim = {STORE_SIGNAL_MAX_BYTES, JSON_DEFAULT_MAX_DEPTH, 0};
    json_error jerr;
    json_t *v = text ? json_parse(text, n, &lim, &jerr) : NULL;
    if (!json_is_object(v)) {
        json_free(v);
        *error = xstrdup("database: signals: a stored signal is not a JSON object; the database was changed by "
                         "something else than chidori");
        return NULL;
    }
    return v;
}

/* The body handed to seq: 1 with *body, 0, -1. The lock held. */
static int handed(db *d, const char *id, uint64_t seq, json_t **body, char **error)
{
    db_stmt *s = db_prepare_static(d, "SELECT body FROM signals WHERE session_id = ?1 AND taken_by = ?2", error);
    if (!s) return fail("reading", error);
    db_bind_text(s, 1, id, (size_t)-1);
    db_bind_int64(s, 2, (int64_t)seq);
    int rc = db_step(s, error);
    int out = rc < 0 ? fail("reading", error) : rc;
    if (out == 1 && body && !(*body = parse_body(s, 0, error))) out = -1;
    db_done(s);
    return out;
}

/* The oldest queued signal of one of names: 1 with *dseq, 0, -1. The lock held. */
static int oldest_queued(db *d, const char *id, const char *const *names, size_t n, uint64_t *dseq, char **error)
{
    db_stmt *s = db_prepare_static(d,
                                   "SELECT delivery_seq, name FROM signals WHERE session_id = ?1 AND taken_by IS NULL"
                                   " ORDER BY delivery_seq", error);
    if (!s) return fail("reading", error);
    db_bind_text(s, 1, id, (size_t)-1);
    int rc = 0, out = 0;
    while (!out && (rc = db_step(s, error)) == 1) {
        const char *name = db_column_text(s, 1, NULL);
        for (size_t i = 0; name && i < n; i++)
            if (names[i] && !strcmp(names[i], name)) {
                *dseq = (uint64_t)db_column_int64(s, 0);
                out = 1;
                break;
            }
    }
    if (!out && rc < 0) out = fail("reading", error);
    db_done(s);
    return out;
}

/* One statement without rows: 0, or -1 with *error. */
static int run_one(db *d, const char *sql, const char *what, const char *id, int64_t a, bool a_null, int64_t b,
                   char **error)
{
    db_stmt *s = db_prepare_static(d, sql, error);
    if (!s) return fail(what, error);
    db_bind_text(s, 1, id, (size_t)-1);
    if (a_null) db_bind_null(s, 2);
    else db_bind_int64(s, 2, a);
    if (strstr(sql, "?3")) db_bind_int64(s, 3, b);
    int rc = db_step(s, error) < 0 ? fail(what, error) : 0;
    db_done(s);
    return rc;
}

int store_signal_put(store *st, const char *session_id, const char *name, const json_t *body, uint64_t taken_by,
                     uint64_t *delivery_seq, bool *handed_before, char **error)
{
    size_t len;
    char *text = json_dump(body, JSON_COMPACT, &len);
    *handed_before = false;
    if (len > STORE_SIGNAL_MAX_BYTES) {
        free(text);
        *error = xasprintf("the signal is over %zu bytes", STORE_SIGNAL_MAX_BYTES);
        return -2;
    }
    db *d = store_lock_db(st);
    int out = db_begin(d, DB_TX_IMMEDIATE, error) < 0 ? fail("writing", error) : 0;
    uint64_t next = 1, queued = 0, queued_bytes = 0;
    bool drop = false;
    if (out == 0 && taken_by) {
        int h = handed(d, session_id, taken_by, NULL, error);
        if (h < 0) out = -1;
        else if (h) *handed_before = true, taken_by = 0;
        /* a timeout's sentinel (the empty name) that lost the race: nothing listens to it, so
         * queueing it would only leave a row no call ever takes */
        drop = *handed_before && !*name;
    }
    if (out == 0) {
        db_stmt *s = db_prepare_static(d,
                                       "SELECT coalesce(max(delivery_seq), 0),"
                                       " coalesce(sum(CASE WHEN taken_by IS NULL THEN 1 ELSE 0 END), 0),"
                                       " coalesce(sum(CASE WHEN taken_by IS NULL THEN octet_length(body) END), 0)"
                                       " FROM signals WHERE session_id = ?1", error);
        if (!s) out = fail("counting", error);
        else {
            db_bind_text(s, 1, session_id, (size_t)-1);
            if (db_step(s, error) == 1) {
                next = (uint64_t)db_column_int64(s, 0) + 1;
                queued = (uint64_t)db_column_int64(s, 1);
                queued_bytes = (uint64_t)db_column_int64(s, 2);
            } else {
                out = fail("counting", error);
            }
        }
        db_done(s);
    }
    if (out == 0 && !taken_by && queued >= STORE_SIGNALS_QUEUED_MAX) {
        *error = xasprintf("the session's mailbox is full: %d signals are queued and not yet taken; let the agent "
                           "take some first", STORE_SIGNALS_QUEUED_MAX);
        out = -2;
    } else if (out == 0 && !taken_by && queued_bytes + len > STORE_SIGNALS_QUEUED_BYTES_MAX) {
        *error = xasprintf("the session's mailbox is full: its queued signals would exceed %zu bytes; let the agent "
                           "take some first, or send smaller payloads", STORE_SIGNALS_QUEUED_BYTES_MAX);
        out = -2;
    }
    if (out == 0 && !drop) {
        db_stmt *s = db_prepare_static(d,
                                       "INSERT INTO signals (session_id, delivery_seq, name, body, enqueued_at_ms,"
                                       " taken_by) VALUES (?1, ?2, ?3, ?4, ?5, ?6)", error);
        if (!s) out = fail("writing", error);
        else {
            db_bind_text(s, 1, session_id, (size_t)-1);
            db_bind_int64(s, 2, (int64_t)next);
            db_bind_text(s, 3, name, (size_t)-1);
            db_bind_text(s, 4, text, len);
            db_bind_int64(s, 5, clock_realtime_ms());
            if (taken_by) db_bind_int64(s, 6, (int64_t)taken_by);
            else db_bind_null(s, 6);
            if (db_step(s, error) < 0) out = fail("writing", error);
        }
        db_done(s);
    }
    if (out == 0 && db_commit(d, error) < 0) out = fail("writing", error);
    if (out < 0) db_rollback(d);
    store_unlock_db(st);
    free(text);
    if (out == 0) *delivery_seq = drop ? 0 : next;
    return out;
}

int store_signal_take(store *st, const char *session_id, uint64_t seq, const char *const *names, size_t n,
                      json_t **body, char **error)
{
    db *d = store_lock_db(st);
    int out = db_begin(d, DB_TX_IMMEDIATE, error) < 0 ? fail("taking", error) : 0;
    if (out == 0) out = handed(d, session_id, seq, body, error);
    uint64_t dseq = 0;
    if (out == 0 && (out = oldest_queued(d, session_id, names, n, &dseq, error)) == 1) {
        if (run_one(d, "UPDATE signals SET taken_by = ?3 WHERE session_id = ?1 AND delivery_seq = ?2", "taking",
                    session_id, (int64_t)dseq, false, (int64_t)seq, error) < 0)
            out = -1;
        if (out == 1) out = handed(d, session_id, seq, body, error);
    }
    if (out >= 0 && db_commit(d, error) < 0) {
        fail("taking", error);
        json_free(*body), *body = NULL;
        out = -1;
    }
    if (out < 0) db_rollback(d);
    store_unlock_db(st);
    return out;
}

int store_signal_waiting(store *st, const char *session_id, uint64_t seq, const char *const *names, size_t n,
                         char **error)
{
    db *d = store_lock_db(st);
    uint64_t dseq;
    int out = handed(d, session_id, seq, NULL, error);
    if (out == 0) out = oldest_queued(d, session_id, names, n, &dseq, error);
    store_unlock_db(st);
    return out;
}

int store_signal_unhand(store *st, const char *session_id, uint64_t seq, char **error)
{
    db *d = store_lock_db(st);
    /* a timeout's sentinel (no name) is dropped: the deadline is the pause's own, not a signal */
    int out = run_one(d, "DELETE FROM signals WHERE session_id = ?1 AND taken_by = ?2 AND name = ''",
                      "queueing again", session_id, (int64_t)seq, false, 0, error);
    if (out == 0)
        out = run_one(d, "UPDATE signals SET taken_by = NULL WHERE session_id = ?1 AND taken_by = ?2",
                      "queueing again", session_id, (int64_t)seq, false, 0, error);
    store_unlock_db(st);
    return out;
}

int store_signal_taken(store *st, const char *session_id, uint64_t delivery_seq, char **error)
{
    db *d = store_lock_db(st);
    db_stmt *s = db_prepare_static(d,
                                   "SELECT COUNT(*) FROM signals WHERE session_id = ?1 AND delivery_seq = ?2"
                                   " AND taken_by IS NOT NULL",
                                   error);
    int out = s ? 0 : fail("reading", error);
    if (s) {
        db_bind_text(s, 1, session_id, (size_t)-1);
        db_bind_int64(s, 2, (int64_t)delivery_seq);
        int rc = db_step(s, error);
        out = rc < 0 ? fail("reading", error) : rc == 1 && db_column_int64(s, 0) != 0;
        db_done(s);
    }
    store_unlock_db(st);
    return out;
}
