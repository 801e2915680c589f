/* store.c — sessions and call logs in SQLite (see store.h).
 *
 * Owns the database connection. Trusts nothing read back from the file beyond SQLite's own
 * integrity: every JSON column is parsed with limits and checked for type, and a row that does
 * not hold up is reported, not guessed at.
 */
#define _GNU_SOURCE
#include "serve/store.h"
#include "serve/store_signals.h"
#include "serve/store_cluster.h"
#include "telemetry/otel.h"
#include "host/host.h"
#include "util/buf.h"

#include <errno.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define COLUMN_MAX_BYTES ((size_t)64 << 20)

/* Statements are prepared once per store and reused (parsing and planning each one again was a
 * good part of the server's own work per session). */
#define STATEMENTS_MAX 32

struct store {
    sqlite3 *db;
    pthread_mutex_t lock;
    struct {
        const char *sql; /* a string literal: its address is the key */
        sqlite3_stmt *stmt;
    } prepared[STATEMENTS_MAX];
    int n_prepared;
};

static const char SCHEMA[] =
    "CREATE TABLE sessions ("
    "  id TEXT PRIMARY KEY,"
    "  run_id TEXT NOT NULL,"
    "  status TEXT NOT NULL,"
    "  input TEXT NOT NULL,"
    "  output TEXT,"
    "  error TEXT,"
    "  pending TEXT,"
    "  pending_approval TEXT,"
    "  policy_profile TEXT,"
    "  approvals TEXT NOT NULL DEFAULT '[]',"
    "  seed TEXT NOT NULL,"
    "  clock_start_ms INTEGER NOT NULL,"
    "  created_at_ms INTEGER NOT NULL,"
    "  replayed_from TEXT,"
    "  call_count INTEGER NOT NULL DEFAULT 0"
    ");"
    "CREATE TABLE records ("
    "  session_id TEXT NOT NULL,"
    "  seq INTEGER NOT NULL,"
    "  record TEXT NOT NULL,"
    "  pos INTEGER,"
    "  PRIMARY KEY (session_id, seq)"
    ") WITHOUT ROWID;"
    "CREATE INDEX records_by_pos ON records (session_id, pos);"
    "CREATE TABLE memory ("
    "  namespace TEXT NOT NULL,"
    "  key TEXT NOT NULL,"
    "  value TEXT NOT NULL,"
    "  UNIQUE (namespace, key)"
    ");";

void session_row_clear(session_row *r)
{
    free(r->id);
    free(r->status);
    json_free(r->input);
    json_free(r->output);
    free(r->error);
    json_free(r->pending);
    json_free(r->pending_approval);
    free(r->policy_profile);
    json_free(r->approvals);
    free(r->replayed_from);
    memset(r, 0, sizeof *r);
}

static int db_error(store *st, const char *what, char **error)
{
    *error = xasprintf("database: %s: %s", what, sqlite3_errmsg(st->db));
    return -1;
}

/* The statement for sql (a string literal), prepared on first use; st->lock held. Give it back
 * with done(). SQLITE_OK or SQLite's error code. */
static int prepare(store *st, const char *sql, sqlite3_stmt **s)
{
    for (int i = 0; i < st->n_prepared; i++) {
        if (st->prepared[i].sql == sql) {
            *s = st->prepared[i].stmt;
            return SQLITE_OK;
        }
    }
    int rc = sqlite3_prepare_v2(st->db, sql, -1, s, NULL);
    if (rc == SQLITE_OK && st->n_prepared < STATEMENTS_MAX) {
        st->prepared[st->n_prepared].sql = sql;
        st->prepared[st->n_prepared++].stmt = *s;
    }
    return rc;
}

/* After a statement's use: reset for the next (no bound value outlives the call), or finalized
 * when it is not one of the kept ones. */
static void done(store *st, sqlite3_stmt *s)
{
    if (!s) return;
    for (int i = 0; i < st->n_prepared; i++) {
        if (st->prepared[i].stmt == s) {
            sqlite3_reset(s);
            sqlite3_clear_bindings(s);
            return;
        }
    }
    sqlite3_finalize(s);
}

/* One statement without results (BEGIN, COMMIT, ROLLBACK), prepared once. */
static int step_once(store *st, const char *sql, char **error)
{
    sqlite3_stmt *s = NULL;
    int rc = prepare(st, sql, &s);
    if (rc == SQLITE_OK) rc = sqlite3_step(s);
    if (rc != SQLITE_DONE) *error = xasprintf("database: %s", sqlite3_errmsg(st->db));
    done(st, s);
    return rc == SQLITE_DONE ? 0 : -1;
}

static int exec(store *st, const char *sql, char **error)
{
    char *msg = NULL;
    if (sqlite3_exec(st->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
        *error = xasprintf("database: %s", msg ? msg : sqlite3_errmsg(st->db));
        sqlite3_free(msg);
        return -1;
    }
    return 0;
}

/* The folder of path, created if missing (the state folder beside the agent). */
static void make_parent(const char *path)
{
    char *dir = xstrdup(path);
    char *slash = strrchr(dir, '/');
    if (slash && slash != dir) {
        *slash = '\0';
        mkdir(dir, 0700);
    }
    free(dir);
}

static int user_version(store *st, int *version, char **error)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(st->db, "PRAGMA user_version", -1, &s, NULL) != SQLITE_OK)
        return db_error(st, "reading the schema version", error);
    int rc = sqlite3_step(s);
    *version = rc == SQLITE_ROW ? sqlite3_column_int(s, 0) : -1;
    sqlite3_finalize(s);
    return rc == SQLITE_ROW ? 0 : db_error(st, "reading the schema version", error);
}

store *store_open(const char *path, char **error)
{
    if (strcmp(path, ":memory:") != 0) make_parent(path);
    store *st = xcalloc(1, sizeof *st);
    pthread_mutex_init(&st->lock, NULL);
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX | SQLITE_OPEN_NOFOLLOW;
    if (sqlite3_open_v2(path, &st->db, flags, NULL) != SQLITE_OK) {
        *error = xasprintf("cannot open the session database %s: %s", path,
                           st->db ? sqlite3_errmsg(st->db) : "out of memory");
        store_close(st);
        return NULL;
    }
    sqlite3_busy_timeout(st->db, 5000);
    int version = 0;
    char *why = NULL;
    if (exec(st, "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;", &why) < 0 ||
        user_version(st, &version, &why) < 0)
        goto fail;
    if (version == 0) {
        char *create = xasprintf("BEGIN IMMEDIATE; %s PRAGMA user_version=%d; COMMIT;", SCHEMA, STORE_SCHEMA_VERSION);
        int rc = exec(st, create, &why);
        free(create);
        if (rc < 0) {
            char *ignored = NULL;
            exec(st, "ROLLBACK", &ignored);
            free(ignored);
            goto fail;
        }
    } else if (version == 1) {
        /* Version 1 had no append position: a record's place in a stream is its seq there (the
         * order a version-1 server loaded them in); new records go after the largest. */
        int rc = exec(st,
                      "BEGIN IMMEDIATE; ALTER TABLE records ADD COLUMN pos INTEGER; UPDATE records SET pos = seq;"
                      " CREATE INDEX records_by_pos ON records (session_id, pos); PRAGMA user_version=2; COMMIT;",
                      &why);
        if (rc < 0) {
            char *ignored = NULL;
            exec(st, "ROLLBACK", &ignored);
            free(ignored);
            goto fail;
        }
    } else if (version != STORE_SCHEMA_VERSION) {
        why = xasprintf("schema version %d, but this chidori knows version %d only", version, STORE_SCHEMA_VERSION);
        goto fail;
    }
    /* sessions' trace contexts (docs/observability.md): a table of its own, added to a database of
     * any version when missing, so no schema version changes and an older chidori ignores it */
    if (exec(st, "CREATE TABLE IF NOT EXISTS session_traces (session_id TEXT PRIMARY KEY, traceparent TEXT NOT NULL)"
                 " WITHOUT ROWID;", &why) < 0)
        goto fail;
    /* sessions' snapshot manifests (docs/http-api.md), the same way: absent for a session stored
     * by an older chidori, which then resumes without the source check. The part sessions share is
     * stored once (manifests); each session names its own (a few bytes a session, so the database
     * and its cache do not grow with a copy per session) */
    if (exec(st, "CREATE TABLE IF NOT EXISTS manifests (id INTEGER PRIMARY KEY, body TEXT NOT NULL UNIQUE);"
                 "CREATE TABLE IF NOT EXISTS session_manifests (session_id TEXT PRIMARY KEY, manifest_id INTEGER NOT NULL)"
                 " WITHOUT ROWID;", &why) < 0)
        goto fail;
    /* sessions' signal mailboxes (store_signals.c), the same way */
    if (exec(st, STORE_SIGNALS_SCHEMA, &why) < 0) goto fail;
    /* the cluster's leases (store_cluster.c), the same way */
    if (exec(st, STORE_CLUSTER_SCHEMA, &why) < 0) goto fail;
    return st;
fail:
    *error = xasprintf("cannot use the session database %s: %s", path, why);
    free(why);
    store_close(st);
    return NULL;
}

/* The connection under the store's lock, for the store's companion files (store_signals.c). */
sqlite3 *store_lock_db(store *st)
{
    pthread_mutex_lock(&st->lock);
    return st->db;
}

void store_unlock_db(store *st) { pthread_mutex_unlock(&st->lock); }

void store_close(store *st)
{
    if (!st) return;
    for (int i = 0; i < st->n_prepared; i++) sqlite3_finalize(st->prepared[i].stmt);
    if (st->db) sqlite3_close(st->db);
    pthread_mutex_destroy(&st->lock);
    free(st);
}

/* ---------- binding and reading columns ---------- */

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

static void bind_text(sqlite3_stmt *s, int i, const char *v)
{
    if (v) sqlite3_bind_text(s, i, v, -1, SQLITE_TRANSIENT);
    else sqlite3_bind_null(s, i);
}

static char *column_text(sqlite3_stmt *s, int i)
{
    const unsigned char *t = sqlite3_column_text(s, i);
    return t ? xstrndup((const char *)t, (size_t)sqlite3_column_bytes(s, i)) : NULL;
}

/* A JSON column: NULL stays NULL; anything else must parse and be of the wanted type (JSON_NULL:
 * any type). */
static int column_json(sqlite3_stmt *s, int i, json_type want, bool nullable, json_t **out, const char *name,
                       char **error)
{
    *out = NULL;
    const char *t = (const char *)sqlite3_column_text(s, i);
    if (!t) {
        if (nullable) return 0;
        *error = xasprintf("`%s` is missing", name);
        return -1;
    }
    size_t n = (size_t)sqlite3_column_bytes(s, i);
    json_limits lim = {COLUMN_MAX_BYTES, JSON_DEFAULT_MAX_DEPTH, 0};
    json_error jerr;
    json_t *v = json_parse(t, n, &lim, &jerr);
    if (!v || (want != JSON_NULL && v->type != want)) {
        *error = v ? xasprintf("`%s` has the wrong type", name) : xasprintf("`%s` is not JSON: %s", name, jerr.message);
        json_free(v);
        return -1;
    }
    *out = v;
    return 0;
}

/* ---------- sessions ---------- */

/* Point a session at a manifest body, stored once (st->lock held, inside a transaction). */
static int put_manifest_locked(store *st, const char *session_id, const json_t *manifest, char **error)
{
    static const char *const sql[] = {
        "INSERT OR IGNORE INTO manifests (body) VALUES (?2)",
        "INSERT OR REPLACE INTO session_manifests (session_id, manifest_id)"
        " SELECT ?1, id FROM manifests WHERE body = ?2",
    };
    size_t n;
    char *text = json_dump(manifest, JSON_COMPACT, &n);
    int rc = 0;
    for (int i = 0; i < 2 && rc == 0; i++) {
        sqlite3_stmt *s = NULL;
        if (prepare(st, sql[i], &s) != SQLITE_OK) rc = db_error(st, "preparing a session's manifest", error);
        else {
            bind_text(s, 1, session_id);
            sqlite3_bind_text(s, 2, text, (int)n, SQLITE_TRANSIENT);
            if (sqlite3_step(s) != SQLITE_DONE) rc = db_error(st, "storing a session's manifest", error);
        }
        done(st, s);
    }
    free(text);
    return rc;
}

int store_insert_session(store *st, const session_row *r, const char *copy_records_from, bool *duplicate,
                         char **error)
{
    return store_insert_session_with(st, r, copy_records_from, NULL, NULL, duplicate, error);
}

int store_insert_session_with(store *st, const session_row *r, const char *copy_records_from, const json_t *records,
                              const json_t *manifest, bool *duplicate, char **error)
{
    *duplicate = false;
    pthread_mutex_lock(&st->lock);
    int rc = -1;
    sqlite3_stmt *s = NULL;
    char *seed = xasprintf("%llu", (unsigned long long)r->seed);
    if (step_once(st, "BEGIN IMMEDIATE", error) < 0) goto out;
    if (prepare(st, "INSERT INTO sessions (id, run_id, status, input, output, error, pending, pending_approval,"
                           " policy_profile, approvals, seed, clock_start_ms, created_at_ms, replayed_from, call_count)"
                           " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)", &s) != SQLITE_OK) {
        db_error(st, "preparing a session", error);
        goto rollback;
    }
    bind_text(s, 1, r->id);
    bind_text(s, 2, r->run_id);
    bind_text(s, 3, r->status);
    bind_json(s, 4, r->input);
    bind_json(s, 5, r->output);
    bind_text(s, 6, r->error);
    bind_json(s, 7, r->pending);
    bind_json(s, 8, r->pending_approval);
    bind_text(s, 9, r->policy_profile);
    bind_json(s, 10, r->approvals);
    bind_text(s, 11, seed);
    sqlite3_bind_int64(s, 12, r->clock_start_ms);
    sqlite3_bind_int64(s, 13, r->created_at_ms);
    bind_text(s, 14, r->replayed_from);
    sqlite3_bind_int64(s, 15, (sqlite3_int64)r->call_count);
    int step = sqlite3_step(s);
    if (step != SQLITE_DONE) {
        *duplicate = sqlite3_extended_errcode(st->db) == SQLITE_CONSTRAINT_PRIMARYKEY;
        db_error(st, "storing a session", error);
        goto rollback;
    }
    done(st, s);
    s = NULL;
    if (r->traceparent[0]) { /* the caller's trace context (telemetry/otel.h), in its own table */
        if (prepare(st, "INSERT INTO session_traces (session_id, traceparent) VALUES (?1, ?2)", &s) != SQLITE_OK) {
            db_error(st, "preparing a session's trace context", error);
            goto rollback;
        }
        bind_text(s, 1, r->id);
        bind_text(s, 2, r->traceparent);
        if (sqlite3_step(s) != SQLITE_DONE) {
            db_error(st, "storing a session's trace context", error);
            goto rollback;
        }
        done(st, s);
        s = NULL;
    }
    if (copy_records_from) {
        if (prepare(st, "INSERT INTO records (session_id, seq, record, pos)"
                               " SELECT ?1, seq, record, pos FROM records WHERE session_id = ?2", &s) != SQLITE_OK) {
            db_error(st, "preparing a copy of records", error);
            goto rollback;
        }
        bind_text(s, 1, r->id);
        bind_text(s, 2, copy_records_from);
        if (sqlite3_step(s) != SQLITE_DONE) {
            db_error(st, "copying records", error);
            goto rollback;
        }
    }
    done(st, s);
    s = NULL;
    if (manifest && put_manifest_locked(st, r->id, manifest, error) < 0) goto rollback;
    for (size_t i = 0; records && i < records->u.array.len; i++) {
        /* as given (the run's loader reads them again); the first record of a seq is kept */
        const json_t *rec = records->u.array.items[i];
        done(st, s);
        s = NULL;
        if (prepare(st, "INSERT OR IGNORE INTO records (session_id, seq, record, pos) VALUES (?1, ?2, ?3, ?4)", &s) !=
            SQLITE_OK) {
            db_error(st, "preparing a given record", error);
            goto rollback;
        }
        double seq = json_number_value(json_object_get(rec, "seq"));
        if (!(seq >= 1 && seq <= 9007199254740991.0)) { /* the loader checked it; the cast must be defined */
            *error = xasprintf("a given record (%zu) has no valid seq", i + 1);
            goto rollback;
        }
        bind_text(s, 1, r->id);
        sqlite3_bind_int64(s, 2, (sqlite3_int64)seq);
        bind_json(s, 3, rec);
        sqlite3_bind_int64(s, 4, (sqlite3_int64)i + 1);
        if (sqlite3_step(s) != SQLITE_DONE) {
            db_error(st, "storing a given record", error);
            goto rollback;
        }
    }
    if (step_once(st, "COMMIT", error) < 0) goto rollback;
    rc = 0;
    goto out;
rollback: {
    char *ignored = NULL;
    step_once(st, "ROLLBACK", &ignored);
    free(ignored);
}
out:
    done(st, s);
    free(seed);
    pthread_mutex_unlock(&st->lock);
    return rc;
}

int store_update_session(store *st, const session_row *r, char **error)
{
    pthread_mutex_lock(&st->lock);
    sqlite3_stmt *s = NULL;
    int rc = -1;
    if (prepare(st, "UPDATE sessions SET status = ?2, output = ?3, error = ?4, pending = ?5,"
                           " pending_approval = ?6, approvals = ?7, call_count = ?8 WHERE id = ?1", &s) != SQLITE_OK) {
        db_error(st, "preparing a session update", error);
        goto out;
    }
    bind_text(s, 1, r->id);
    bind_text(s, 2, r->status);
    bind_json(s, 3, r->output);
    bind_text(s, 4, r->error);
    bind_json(s, 5, r->pending);
    bind_json(s, 6, r->pending_approval);
    bind_json(s, 7, r->approvals);
    sqlite3_bind_int64(s, 8, (sqlite3_int64)r->call_count);
    if (sqlite3_step(s) != SQLITE_DONE) {
        db_error(st, "updating a session", error);
        goto out;
    }
    rc = 0;
out:
    done(st, s);
    pthread_mutex_unlock(&st->lock);
    return rc;
}

/* The columns read_row reads, in its order. */
#define SESSION_COLUMNS                                                                                                \
    "id, run_id, status, input, output, error, pending, pending_approval,"                                            \
    " policy_profile, approvals, seed, clock_start_ms, created_at_ms, replayed_from, call_count,"                     \
    " (SELECT traceparent FROM session_traces WHERE session_traces.session_id = sessions.id)"

static const char *const STATUSES[] = {"running", "completed", "failed", "cancelled", "paused", "awaitingapproval",
                                       "queued"};

static int read_row(sqlite3_stmt *s, session_row *r, char **error)
{
    memset(r, 0, sizeof *r);
    char *why = NULL;
    r->id = column_text(s, 0);
    char *run_id = column_text(s, 1);
    r->status = column_text(s, 2);
    char *seed = column_text(s, 10);
    bool known = false;
    for (size_t i = 0; r->status && i < sizeof STATUSES / sizeof *STATUSES; i++) known |= !strcmp(r->status, STATUSES[i]);
    if (!r->id || !*r->id) why = xstrdup("no id");
    else if (!run_id || strlen(run_id) != 36) why = xstrdup("a bad run id");
    else if (!known) why = xasprintf("an unknown status `%s`", r->status ? r->status : "");
    else if (!seed || !*seed || strspn(seed, "0123456789") != strlen(seed) || strlen(seed) > 20)
        why = xstrdup("a bad seed");
    if (!why) {
        memcpy(r->run_id, run_id, 37);
        r->seed = strtoull(seed, NULL, 10);
        r->clock_start_ms = sqlite3_column_int64(s, 11);
        r->created_at_ms = sqlite3_column_int64(s, 12);
        r->error = column_text(s, 5);
        r->policy_profile = column_text(s, 8);
        r->replayed_from = column_text(s, 13);
        sqlite3_int64 count = sqlite3_column_int64(s, 14);
        r->call_count = count > 0 ? (size_t)count : 0;
        /* stored text anyone with the file could edit: a malformed one is dropped, not used */
        const unsigned char *tp = sqlite3_column_text(s, 15);
        if (tp && otel_traceparent_valid((const char *)tp)) memcpy(r->traceparent, tp, 55);
        if (column_json(s, 3, JSON_OBJECT, false, &r->input, "input", &why) == 0 &&
            column_json(s, 4, JSON_NULL, true, &r->output, "output", &why) == 0 &&
            column_json(s, 6, JSON_OBJECT, true, &r->pending, "pending", &why) == 0 &&
            column_json(s, 7, JSON_OBJECT, true, &r->pending_approval, "pending_approval", &why) == 0)
            column_json(s, 9, JSON_ARRAY, false, &r->approvals, "approvals", &why);
    }
    free(run_id);
    free(seed);
    if (why) {
        *error = xasprintf("session %s in the database has %s", r->id ? r->id : "(no id)", why);
        free(why);
        session_row_clear(r);
        return -1;
    }
    return 0;
}

int store_load_sessions(store *st, void (*fn)(void *ctx, session_row *r), void *ctx, char **error)
{
    pthread_mutex_lock(&st->lock);
    sqlite3_stmt *s = NULL;
    int rc = -1;
    if (prepare(st, "SELECT " SESSION_COLUMNS " FROM sessions ORDER BY created_at_ms, rowid", &s) != SQLITE_OK) {
        db_error(st, "reading sessions", error);
        goto out;
    }
    int step;
    while ((step = sqlite3_step(s)) == SQLITE_ROW) {
        session_row r;
        if (read_row(s, &r, error) < 0) goto out;
        fn(ctx, &r);
        session_row_clear(&r);
    }
    if (step != SQLITE_DONE) {
        db_error(st, "reading sessions", error);
        goto out;
    }
    rc = 0;
out:
    done(st, s);
    pthread_mutex_unlock(&st->lock);
    return rc;
}

int store_get_session(store *st, const char *id, session_row *out, char **error)
{
    memset(out, 0, sizeof *out);
    pthread_mutex_lock(&st->lock);
    sqlite3_stmt *s = NULL;
    int rc = -1;
    if (prepare(st, "SELECT " SESSION_COLUMNS " FROM sessions WHERE id = ?1", &s) !=
        SQLITE_OK) {
        db_error(st, "reading a session", error);
        goto out;
    }
    bind_text(s, 1, id);
    int step = sqlite3_step(s);
    if (step == SQLITE_ROW) rc = read_row(s, out, error) < 0 ? -1 : 1;
    else if (step == SQLITE_DONE) rc = 0;
    else db_error(st, "reading a session", error);
out:
    done(st, s);
    pthread_mutex_unlock(&st->lock);
    return rc;
}

/* ---------- records ---------- */

/* The records of a prepared statement's rows (column 0 seq, 1 record, 2 pos when has_pos): a JSON
 * array, or NULL with *error. *last_pos is the last row's pos. */
static json_t *rows_of_records(store *st, sqlite3_stmt *s, const char *session_id, bool has_pos, int64_t *last_pos,
                               char **error)
{
    json_t *out = json_array();
    int step;
    while ((step = sqlite3_step(s)) == SQLITE_ROW) {
        json_t *rec = NULL;
        char *why = NULL;
        if (column_json(s, 1, JSON_OBJECT, false, &rec, "record", &why) < 0) {
            *error = xasprintf("session %s: record %lld in the database: %s", session_id,
                               (long long)sqlite3_column_int64(s, 0), why);
            free(why);
            json_free(out);
            return NULL;
        }
        json_array_push(out, rec);
        if (has_pos) *last_pos = sqlite3_column_int64(s, 2);
    }
    if (step != SQLITE_DONE) {
        db_error(st, "reading records", error);
        json_free(out);
        return NULL;
    }
    return out;
}

json_t *store_load_records(store *st, const char *session_id, char **error)
{
    pthread_mutex_lock(&st->lock);
    sqlite3_stmt *s = NULL;
    json_t *out = NULL;
    if (prepare(st, "SELECT seq, record FROM records WHERE session_id = ?1 ORDER BY seq", &s) != SQLITE_OK) {
        db_error(st, "reading records", error);
    } else {
        bind_text(s, 1, session_id);
        out = rows_of_records(st, s, session_id, false, NULL, error);
    }
    done(st, s);
    pthread_mutex_unlock(&st->lock);
    return out;
}

int store_record_stats(store *st, const char *session_id, store_log_stats *out, char **error)
{
    memset(out, 0, sizeof *out);
    pthread_mutex_lock(&st->lock);
    sqlite3_stmt *s = NULL;
    int rc = -1;
    if (prepare(st, "SELECT count(*), total(length(CAST(record AS BLOB)) + 1), coalesce(max(pos), 0)"
                    " FROM records WHERE session_id = ?1", &s) != SQLITE_OK) {
        db_error(st, "measuring a call log", error);
        goto out;
    }
    bind_text(s, 1, session_id);
    if (sqlite3_step(s) != SQLITE_ROW) {
        db_error(st, "measuring a call log", error);
        goto out;
    }
    sqlite3_int64 n = sqlite3_column_int64(s, 0), last = sqlite3_column_int64(s, 2);
    double bytes = sqlite3_column_double(s, 1);
    out->records = n > 0 ? (size_t)n : 0;
    out->bytes = bytes > 0 ? (uint64_t)bytes : 0;
    out->last_pos = last > 0 ? last : 0;
    rc = 0;
out:
    done(st, s);
    pthread_mutex_unlock(&st->lock);
    return rc;
}

json_t *store_load_records_page(store *st, const char *session_id, int64_t after_pos, size_t limit, int64_t *last_pos,
                                char **error)
{
    pthread_mutex_lock(&st->lock);
    sqlite3_stmt *s = NULL;
    json_t *out = NULL;
    if (prepare(st, "SELECT seq, record, pos FROM records WHERE session_id = ?1 AND pos > ?2 ORDER BY pos LIMIT ?3",
                &s) != SQLITE_OK) {
        db_error(st, "reading records", error);
    } else {
        bind_text(s, 1, session_id);
        sqlite3_bind_int64(s, 2, (sqlite3_int64)after_pos);
        sqlite3_bind_int64(s, 3, (sqlite3_int64)limit);
        out = rows_of_records(st, s, session_id, true, last_pos, error);
    }
    done(st, s);
    pthread_mutex_unlock(&st->lock);
    return out;
}

int store_append_record(store *st, const char *session_id, uint64_t seq, int64_t pos, const char *record_json,
                        char **error)
{
    pthread_mutex_lock(&st->lock);
    sqlite3_stmt *s = NULL;
    int rc = -1;
    if (prepare(st, "INSERT INTO records (session_id, seq, record, pos) VALUES (?1, ?2, ?3, ?4)", &s) != SQLITE_OK) {
        db_error(st, "preparing a record", error);
        goto out;
    }
    bind_text(s, 1, session_id);
    sqlite3_bind_int64(s, 2, (sqlite3_int64)seq);
    bind_text(s, 3, record_json);
    sqlite3_bind_int64(s, 4, (sqlite3_int64)pos);
    if (sqlite3_step(s) != SQLITE_DONE) {
        db_error(st, "storing a record", error);
        goto out;
    }
    rc = 0;
out:
    done(st, s);
    pthread_mutex_unlock(&st->lock);
    return rc;
}

/* ---------- memory ---------- */

static void memory_entry(sqlite3_stmt *s, json_t *out, char **why)
{
    json_t *v = NULL;
    if (*why || column_json(s, 1, JSON_NULL, false, &v, "memory value", why) < 0) return;
    json_t *e = json_object();
    json_object_set(e, "key", json_string((const char *)sqlite3_column_text(s, 0)));
    json_object_set(e, "value", v);
    json_array_push(out, e);
}

int store_memory_op(void *ctx, const char *action, const char *ns, const char *key, const json_t *value,
                    const char *prefix, json_t **result, char **error)
{
    store *st = ctx;
    *result = NULL;
    pthread_mutex_lock(&st->lock);
    sqlite3_stmt *s = NULL;
    char *why = NULL, *text = NULL;
    int rc = HOST_ERROR;
    const char *sql;
    bool set = !strcmp(action, "set");
    if (!strcmp(action, "get")) sql = "SELECT key, value FROM memory WHERE namespace = ?1 AND key = ?2";
    else if (set) sql = "INSERT INTO memory (namespace, key, value) VALUES (?1, ?2, ?3)"
                        " ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value";
    else if (!strcmp(action, "delete")) sql = "DELETE FROM memory WHERE namespace = ?1 AND key = ?2";
    else if (!strcmp(action, "list")) sql = "SELECT key, value FROM memory WHERE namespace = ?1"
                                            " AND (?3 IS NULL OR substr(key, 1, length(?3)) = ?3) ORDER BY rowid";
    else sql = "DELETE FROM memory WHERE namespace = ?1";
    if (set) {
        size_t n;
        text = json_dump(value, JSON_COMPACT, &n);
        sqlite3_stmt *total = NULL;
        double used = 0;
        if (prepare(st, "SELECT total(length(value) + length(key)) FROM memory", &total) ==
                SQLITE_OK &&
            sqlite3_step(total) == SQLITE_ROW)
            used = sqlite3_column_double(total, 0);
        done(st, total);
        if (used + (double)n > (double)STORE_MEMORY_MAX_BYTES) {
            *error = xasprintf("memory is full: the store would exceed %d MiB", (int)(STORE_MEMORY_MAX_BYTES >> 20));
            goto out;
        }
    }
    if (prepare(st, sql, &s) != SQLITE_OK) {
        db_error(st, "memory", error);
        goto out;
    }
    bind_text(s, 1, ns);
    if (key) bind_text(s, 2, key);
    if (set) sqlite3_bind_text(s, 3, text, -1, SQLITE_STATIC);
    if (!strcmp(action, "list")) bind_text(s, 3, prefix);
    json_t *out = !strcmp(action, "list") ? json_array() : NULL;
    int step;
    while ((step = sqlite3_step(s)) == SQLITE_ROW) {
        if (out) memory_entry(s, out, &why);
        else if (!*result && !why) column_json(s, 1, JSON_NULL, false, result, "memory value", &why);
    }
    if (step != SQLITE_DONE || why) {
        json_free(out);
        json_free(*result), *result = NULL;
        if (why) *error = xasprintf("memory in the database: %s", why);
        else db_error(st, "memory", error);
        goto out;
    }
    if (out) *result = out;
    else if (!strcmp(action, "delete")) *result = json_bool(sqlite3_changes(st->db) > 0);
    else if (!*result) *result = json_null();
    rc = HOST_OK;
out:
    done(st, s);
    free(text);
    free(why);
    pthread_mutex_unlock(&st->lock);
    return rc;
}

/* ---------- snapshot manifests ---------- */

int store_put_manifest(store *st, const char *session_id, const json_t *manifest, char **error)
{
    pthread_mutex_lock(&st->lock);
    int rc = step_once(st, "BEGIN IMMEDIATE", error);
    if (rc == 0 && (rc = put_manifest_locked(st, session_id, manifest, error)) == 0)
        rc = step_once(st, "COMMIT", error);
    if (rc < 0) {
        char *ignored = NULL;
        step_once(st, "ROLLBACK", &ignored);
        free(ignored);
    }
    pthread_mutex_unlock(&st->lock);
    return rc;
}

int store_get_manifest(store *st, const char *session_id, json_t **out, char **error)
{
    *out = NULL;
    pthread_mutex_lock(&st->lock);
    sqlite3_stmt *s = NULL;
    int rc = -1;
    if (prepare(st, "SELECT body FROM manifests WHERE id = (SELECT manifest_id FROM session_manifests"
                    " WHERE session_id = ?1)", &s) != SQLITE_OK) {
        db_error(st, "preparing a read of a session's manifest", error);
    } else {
        bind_text(s, 1, session_id);
        int step = sqlite3_step(s);
        if (step == SQLITE_DONE) rc = 0;
        else if (step != SQLITE_ROW) db_error(st, "reading a session's manifest", error);
        else if (column_json(s, 0, JSON_OBJECT, false, out, "manifest", error) == 0) rc = 1;
        else {
            char *why = *error;
            *error = xasprintf("session %s: its stored snapshot manifest %s", session_id, why);
            free(why);
        }
    }
    done(st, s);
    pthread_mutex_unlock(&st->lock);
    return rc;
}

int store_drop_unanswered(store *st, const char *session_id, int64_t after_pos, uint64_t seq, uint64_t *bytes,
                          char **error)
{
    *bytes = 0;
    pthread_mutex_lock(&st->lock);
    sqlite3_stmt *s = NULL;
    int rc = -1;
    if (step_once(st, "BEGIN IMMEDIATE", error) < 0) goto out;
    if (prepare(st, "SELECT count(*), min(seq), max(seq), total(length(CAST(record AS BLOB)) + 1) FROM records"
                    " WHERE session_id = ?1 AND pos > ?2", &s) != SQLITE_OK) {
        db_error(st, "preparing a look at a resume's records", error);
        goto rollback;
    }
    bind_text(s, 1, session_id);
    sqlite3_bind_int64(s, 2, after_pos);
    if (sqlite3_step(s) != SQLITE_ROW) {
        db_error(st, "looking at a resume's records", error);
        goto rollback;
    }
    sqlite3_int64 n = sqlite3_column_int64(s, 0), lo = sqlite3_column_int64(s, 1), hi = sqlite3_column_int64(s, 2);
    double size = sqlite3_column_double(s, 3);
    done(st, s);
    s = NULL;
    if (n > 1 || (n == 1 && (lo != (sqlite3_int64)seq || hi != (sqlite3_int64)seq))) {
        rc = 2; /* more than the answer: something ran live, nothing is undone */
        goto rollback;
    }
    if (n == 1) {
        if (prepare(st, "DELETE FROM records WHERE session_id = ?1 AND pos > ?2", &s) != SQLITE_OK) {
            db_error(st, "preparing the removal of a resume's answer", error);
            goto rollback;
        }
        bind_text(s, 1, session_id);
        sqlite3_bind_int64(s, 2, after_pos);
        if (sqlite3_step(s) != SQLITE_DONE) {
            db_error(st, "removing a resume's answer", error);
            goto rollback;
        }
    }
    if (step_once(st, "COMMIT", error) < 0) goto rollback;
    *bytes = size > 0 ? (uint64_t)size : 0;
    rc = (int)n;
    goto out;
rollback: {
    char *ignored = NULL;
    step_once(st, "ROLLBACK", &ignored);
    free(ignored);
}
out:
    done(st, s);
    pthread_mutex_unlock(&st->lock);
    return rc;
}
