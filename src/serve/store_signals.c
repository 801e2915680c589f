/* store_signals.c — the sessions' signal mailboxes in SQLite (see store_signals.h).
 *
 * Each operation runs under the store's lock and, where it reads then writes, in one transaction,
 * so two requests, a run's take and a deadline never see half of each other's change. Trusts
 * nothing read back from the file: bodies are parsed with limits and must be objects.
 */
#define _GNU_SOURCE
#include "serve/store_signals.h"
#include "util/buf.h"
#include "util/clock.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

static int fail(sqlite3 *db, const char *what, char **error)
{
    *error = xasprintf("database: signals: %s: %s", what, sqlite3_errmsg(db));
    return -1;
}

static int run(sqlite3 *db, const char *sql, char **error)
{
    char *msg = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
        *error = xasprintf("database: signals: %s", msg ? msg : sqlite3_errmsg(db));
        sqlite3_free(msg);
        return -1;
    }
    return 0;
}

static json_t *parse_body(sqlite3_stmt *s, int col, char **error)
{
    const char *text = (const char *)sqlite3_column_text(s, col);
    size_t n = (size_t)sqlite3_column_bytes(s, col);
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
static int handed(sqlite3 *db, const char *id, uint64_t seq, json_t **body, char **error)
{
    sqlite3_stmt *s = NULL;
    if (sqlite3_prepare_v2(db, "SELECT body FROM signals WHERE session_id = ?1 AND taken_by = ?2", -1, &s, NULL) !=
        SQLITE_OK)
        return fail(db, "reading", error);
    sqlite3_bind_text(s, 1, id, -1, SQLITE_STATIC);
    sqlite3_bind_int64(s, 2, (sqlite3_int64)seq);
    int rc = sqlite3_step(s);
    int out = rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : fail(db, "reading", error);
    if (out == 1 && body && !(*body = parse_body(s, 0, error))) out = -1;
    sqlite3_finalize(s);
    return out;
}

/* The oldest queued signal of one of names: 1 with *dseq, 0, -1. The lock held. */
static int oldest_queued(sqlite3 *db, const char *id, const char *const *names, size_t n, uint64_t *dseq,
                         char **error)
{
    sqlite3_stmt *s = NULL;
    if (sqlite3_prepare_v2(db,
                           "SELECT delivery_seq, name FROM signals WHERE session_id = ?1 AND taken_by IS NULL"
                           " ORDER BY delivery_seq",
                           -1, &s, NULL) != SQLITE_OK)
        return fail(db, "reading", error);
    sqlite3_bind_text(s, 1, id, -1, SQLITE_STATIC);
    int rc, out = 0;
    while (!out && (rc = sqlite3_step(s)) == SQLITE_ROW) {
        const char *name = (const char *)sqlite3_column_text(s, 1);
        for (size_t i = 0; name && i < n; i++)
            if (names[i] && !strcmp(names[i], name)) {
                *dseq = (uint64_t)sqlite3_column_int64(s, 0);
                out = 1;
                break;
            }
    }
    if (!out && rc != SQLITE_DONE) out = fail(db, "reading", error);
    sqlite3_finalize(s);
    return out;
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
    sqlite3 *db = store_lock_db(st);
    int out = run(db, "BEGIN IMMEDIATE", error);
    sqlite3_stmt *s = NULL;
    uint64_t next = 1, queued = 0, queued_bytes = 0;
    bool drop = false;
    if (out == 0 && taken_by) {
        int h = handed(db, session_id, taken_by, NULL, error);
        if (h < 0) out = -1;
        else if (h) *handed_before = true, taken_by = 0;
        /* a timeout's sentinel (the empty name) that lost the race: nothing listens to it, so
         * queueing it would only leave a row no call ever takes */
        drop = *handed_before && !*name;
    }
    if (out == 0) {
        if (sqlite3_prepare_v2(db,
                               "SELECT coalesce(max(delivery_seq), 0), coalesce(sum(taken_by IS NULL), 0),"
                               " coalesce(sum(CASE WHEN taken_by IS NULL THEN length(CAST(body AS BLOB)) END), 0)"
                               " FROM signals WHERE session_id = ?1",
                               -1, &s, NULL) != SQLITE_OK)
            out = fail(db, "counting", error);
        else {
            sqlite3_bind_text(s, 1, session_id, -1, SQLITE_STATIC);
            if (sqlite3_step(s) == SQLITE_ROW) {
                next = (uint64_t)sqlite3_column_int64(s, 0) + 1;
                queued = (uint64_t)sqlite3_column_int64(s, 1);
                queued_bytes = (uint64_t)sqlite3_column_int64(s, 2);
            } else {
                out = fail(db, "counting", error);
            }
        }
        sqlite3_finalize(s), s = NULL;
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
        if (sqlite3_prepare_v2(db,
                               "INSERT INTO signals (session_id, delivery_seq, name, body, enqueued_at_ms, taken_by)"
                               " VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                               -1, &s, NULL) != SQLITE_OK)
            out = fail(db, "writing", error);
        else {
            sqlite3_bind_text(s, 1, session_id, -1, SQLITE_STATIC);
            sqlite3_bind_int64(s, 2, (sqlite3_int64)next);
            sqlite3_bind_text(s, 3, name, -1, SQLITE_STATIC);
            sqlite3_bind_text(s, 4, text, (int)len, SQLITE_STATIC);
            sqlite3_bind_int64(s, 5, clock_realtime_ms());
            if (taken_by) sqlite3_bind_int64(s, 6, (sqlite3_int64)taken_by);
            else sqlite3_bind_null(s, 6);
            if (sqlite3_step(s) != SQLITE_DONE) out = fail(db, "writing", error);
        }
        sqlite3_finalize(s);
    }
    if (out == 0) out = run(db, "COMMIT", error);
    if (out < 0) {
        char *ignored = NULL;
        run(db, "ROLLBACK", &ignored);
        free(ignored);
    }
    store_unlock_db(st);
    free(text);
    if (out == 0) *delivery_seq = drop ? 0 : next;
    return out;
}

int store_signal_take(store *st, const char *session_id, uint64_t seq, const char *const *names, size_t n,
                      json_t **body, char **error)
{
    sqlite3 *db = store_lock_db(st);
    int out = run(db, "BEGIN IMMEDIATE", error);
    if (out == 0) out = handed(db, session_id, seq, body, error);
    uint64_t dseq = 0;
    if (out == 0 && (out = oldest_queued(db, session_id, names, n, &dseq, error)) == 1) {
        sqlite3_stmt *s = NULL;
        if (sqlite3_prepare_v2(db, "UPDATE signals SET taken_by = ?3 WHERE session_id = ?1 AND delivery_seq = ?2",
                               -1, &s, NULL) != SQLITE_OK)
            out = fail(db, "taking", error);
        else {
            sqlite3_bind_text(s, 1, session_id, -1, SQLITE_STATIC);
            sqlite3_bind_int64(s, 2, (sqlite3_int64)dseq);
            sqlite3_bind_int64(s, 3, (sqlite3_int64)seq);
            if (sqlite3_step(s) != SQLITE_DONE) out = fail(db, "taking", error);
        }
        sqlite3_finalize(s);
        if (out == 1) out = handed(db, session_id, seq, body, error);
    }
    if (out >= 0 && run(db, "COMMIT", error) < 0) {
        json_free(*body), *body = NULL;
        out = -1;
    }
    if (out < 0) {
        char *ignored = NULL;
        run(db, "ROLLBACK", &ignored);
        free(ignored);
    }
    store_unlock_db(st);
    return out;
}

int store_signal_waiting(store *st, const char *session_id, uint64_t seq, const char *const *names, size_t n,
                         char **error)
{
    sqlite3 *db = store_lock_db(st);
    uint64_t dseq;
    int out = handed(db, session_id, seq, NULL, error);
    if (out == 0) out = oldest_queued(db, session_id, names, n, &dseq, error);
    store_unlock_db(st);
    return out;
}

int store_signal_unhand(store *st, const char *session_id, uint64_t seq, char **error)
{
    sqlite3 *db = store_lock_db(st);
    sqlite3_stmt *s = NULL;
    int out = 0;
    /* a timeout's sentinel (no name) is dropped: the deadline is the pause's own, not a signal */
    static const char *const sql[] = {
        "DELETE FROM signals WHERE session_id = ?1 AND taken_by = ?2 AND name = ''",
        "UPDATE signals SET taken_by = NULL WHERE session_id = ?1 AND taken_by = ?2",
    };
    for (int i = 0; i < 2 && out == 0; i++) {
        if (sqlite3_prepare_v2(db, sql[i], -1, &s, NULL) != SQLITE_OK) {
            out = fail(db, "queueing again", error);
            break;
        }
        sqlite3_bind_text(s, 1, session_id, -1, SQLITE_STATIC);
        sqlite3_bind_int64(s, 2, (sqlite3_int64)seq);
        if (sqlite3_step(s) != SQLITE_DONE) out = fail(db, "queueing again", error);
        sqlite3_finalize(s), s = NULL;
    }
    store_unlock_db(st);
    return out;
}
