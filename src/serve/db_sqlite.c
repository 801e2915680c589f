/* db_sqlite.c — the SQLite driver of db.h: one connection to one file, opened in WAL mode with
 * synchronous=FULL (a row is on disk when its statement returns) and a 5 s busy timeout.
 *
 * Owns the connection and its kept statements (parsed once, keyed by the SQL literal's address),
 * the transaction statements among them (BEGIN, BEGIN IMMEDIATE, COMMIT, ROLLBACK: a session's
 * start and end take several transactions, and parsing each one's text again was a measurable
 * part of the server's CPU per session).
 * Trusts the SQL text; adds octet_length(x) (bytes of x as text), which PostgreSQL has and the
 * SQLite of Debian 12 has not, so store SQL is written once. LISTEN/NOTIFY have no meaning for
 * one embedded file: notify does nothing and a wait sleeps (the caller polls its tables).
 */
#define _GNU_SOURCE
#include "serve/db.h"
#include "util/buf.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define KEPT_MAX 48

typedef struct lite {
    db base;
    sqlite3 *h;
    struct {
        const char *sql; /* its address is the key */
        struct lstmt *stmt;
    } kept[KEPT_MAX];
    int n_kept;
    sqlite3_stmt *tx[4]; /* TX_*, prepared on first use */
} lite;

enum { TX_BEGIN, TX_BEGIN_IMMEDIATE, TX_COMMIT, TX_ROLLBACK };
static const char *const TX_SQL[4] = {"BEGIN", "BEGIN IMMEDIATE", "COMMIT", "ROLLBACK"};

typedef struct lstmt {
    db_stmt base;
    sqlite3_stmt *s;
    bool kept, busy;
} lstmt;

static const db_driver DRIVER;

static int fail(lite *l, const char *what, char **error)
{
    *error = xasprintf("database: %s%s%s", what ? what : "", what ? ": " : "", sqlite3_errmsg(l->h));
    return -1;
}

static void octet_length(sqlite3_context *c, int argc, sqlite3_value **argv)
{
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return;
    if (sqlite3_value_type(argv[0]) == SQLITE_BLOB) sqlite3_result_int64(c, sqlite3_value_bytes(argv[0]));
    else {
        sqlite3_value_text(argv[0]);
        sqlite3_result_int64(c, sqlite3_value_bytes(argv[0]));
    }
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

db *db_sqlite_open(const char *path, char **error)
{
    if (strcmp(path, ":memory:") != 0) make_parent(path);
    lite *l = xcalloc(1, sizeof *l);
    l->base.drv = &DRIVER;
    l->base.kind = DB_SQLITE;
    l->base.describe = xstrdup(path);
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX | SQLITE_OPEN_NOFOLLOW;
    if (sqlite3_open_v2(path, &l->h, flags, NULL) != SQLITE_OK) {
        *error = xasprintf("cannot open the session database %s: %s", path, l->h ? sqlite3_errmsg(l->h) : "out of memory");
        db_close(&l->base);
        return NULL;
    }
    sqlite3_busy_timeout(l->h, 5000);
    sqlite3_create_function(l->h, "octet_length", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL, octet_length, NULL, NULL);
    char *why = NULL;
    /* a 512 KiB page cache (SQLite's default is 2,000 KiB): the kernel caches the file's pages
     * too, and the server's RSS stops growing with its database sooner (docs/storage.md) */
    if (db_exec(&l->base, "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON; PRAGMA cache_size=-512;", &why) < 0) {
        *error = xasprintf("cannot use the session database %s: %s", path, why);
        free(why);
        db_close(&l->base);
        return NULL;
    }
    return &l->base;
}

static void lite_close(db *d)
{
    lite *l = (lite *)d;
    for (int i = 0; i < l->n_kept; i++) {
        sqlite3_finalize(l->kept[i].stmt->s);
        free(l->kept[i].stmt);
    }
    for (int i = 0; i < 4; i++) sqlite3_finalize(l->tx[i]); /* NULL is a no-op */
    if (l->h) sqlite3_close(l->h);
    free(l->base.describe);
    free(l);
}

static int lite_exec(db *d, const char *sql, char **error)
{
    lite *l = (lite *)d;
    char *msg = NULL;
    if (sqlite3_exec(l->h, sql, NULL, NULL, &msg) != SQLITE_OK) {
        *error = xasprintf("database: %s", msg ? msg : sqlite3_errmsg(l->h));
        sqlite3_free(msg);
        return -1;
    }
    return 0;
}

static db_stmt *lite_prepare(db *d, const char *sql, bool keep, char **error)
{
    lite *l = (lite *)d;
    if (keep) {
        for (int i = 0; i < l->n_kept; i++)
            if (l->kept[i].sql == sql && !l->kept[i].stmt->busy) {
                l->kept[i].stmt->busy = true;
                return &l->kept[i].stmt->base;
            }
    }
    sqlite3_stmt *s = NULL;
    /* SQLite reads ?N and bare ? itself, as db.h describes them */
    if (sqlite3_prepare_v2(l->h, sql, -1, &s, NULL) != SQLITE_OK) {
        fail(l, "preparing a statement", error);
        return NULL;
    }
    lstmt *st = xcalloc(1, sizeof *st);
    st->base.d = d;
    st->s = s;
    st->busy = true;
    if (keep && l->n_kept < KEPT_MAX) {
        st->kept = true;
        l->kept[l->n_kept].sql = sql;
        l->kept[l->n_kept++].stmt = st;
    }
    return &st->base;
}

static void lite_bind(db_stmt *bs, int i, int type, const void *v, size_t n, int64_t iv)
{
    sqlite3_stmt *s = ((lstmt *)bs)->s;
    switch (type) {
    case DB_BIND_INT64: sqlite3_bind_int64(s, i, iv); break;
    case DB_BIND_TEXT: sqlite3_bind_text64(s, i, v, n, SQLITE_TRANSIENT, SQLITE_UTF8); break;
    case DB_BIND_BLOB: sqlite3_bind_blob64(s, i, v, n, SQLITE_TRANSIENT); break;
    default: sqlite3_bind_null(s, i);
    }
}

static int lite_step(db_stmt *bs, char **error)
{
    int rc = sqlite3_step(((lstmt *)bs)->s);
    if (rc == SQLITE_ROW) return 1;
    if (rc == SQLITE_DONE) return 0;
    return fail((lite *)bs->d, NULL, error);
}

static bool lite_column_null(db_stmt *bs, int col) { return sqlite3_column_type(((lstmt *)bs)->s, col) == SQLITE_NULL; }
static int64_t lite_column_int64(db_stmt *bs, int col) { return sqlite3_column_int64(((lstmt *)bs)->s, col); }
static double lite_column_double(db_stmt *bs, int col) { return sqlite3_column_double(((lstmt *)bs)->s, col); }

static const char *lite_column_text(db_stmt *bs, int col, size_t *n)
{
    sqlite3_stmt *s = ((lstmt *)bs)->s;
    const char *t = (const char *)sqlite3_column_text(s, col);
    if (n) *n = t ? (size_t)sqlite3_column_bytes(s, col) : 0;
    return t;
}

static const void *lite_column_blob(db_stmt *bs, int col, size_t *n)
{
    sqlite3_stmt *s = ((lstmt *)bs)->s;
    const void *t = sqlite3_column_blob(s, col);
    if (n) *n = t ? (size_t)sqlite3_column_bytes(s, col) : 0;
    return t;
}

static void lite_done(db_stmt *bs)
{
    lstmt *st = (lstmt *)bs;
    if (st->kept) {
        sqlite3_reset(st->s);
        sqlite3_clear_bindings(st->s);
        st->busy = false;
        return;
    }
    sqlite3_finalize(st->s);
    free(st);
}

static int64_t lite_changes(db *d) { return sqlite3_changes64(((lite *)d)->h); }

static bool lite_unique_violation(db *d)
{
    int e = sqlite3_extended_errcode(((lite *)d)->h);
    return e == SQLITE_CONSTRAINT_PRIMARYKEY || e == SQLITE_CONSTRAINT_UNIQUE;
}

/* One of the transaction statements, run as sqlite3_exec would run its text (step to the end,
 * then reset; an error is the connection's message), without parsing it again. */
static int lite_tx(db *d, int which, char **error)
{
    lite *l = (lite *)d;
    if (!l->tx[which] && sqlite3_prepare_v2(l->h, TX_SQL[which], -1, &l->tx[which], NULL) != SQLITE_OK) {
        l->tx[which] = NULL;
        return fail(l, "preparing a transaction statement", error);
    }
    int rc = sqlite3_step(l->tx[which]);
    if (rc != SQLITE_DONE) {
        *error = xasprintf("database: %s", sqlite3_errmsg(l->h));
        sqlite3_reset(l->tx[which]);
        return -1;
    }
    sqlite3_reset(l->tx[which]);
    return 0;
}

static int lite_begin(db *d, db_tx kind, char **error)
{
    return lite_tx(d, kind == DB_TX_IMMEDIATE ? TX_BEGIN_IMMEDIATE : TX_BEGIN, error);
}

static int lite_commit(db *d, char **error) { return lite_tx(d, TX_COMMIT, error); }

static void lite_rollback(db *d)
{
    char *ignored = NULL;
    if (!sqlite3_get_autocommit(((lite *)d)->h)) lite_tx(d, TX_ROLLBACK, &ignored);
    free(ignored);
}

static int lite_notify(db *d, const char *channel, const char *payload, char **error) { return 0; }
static int lite_listen(db *d, const char *channel, char **error) { return 0; }

static int lite_wait(db *d, int timeout_ms, char **channel, char **payload, char **error)
{
    struct timespec ts = {timeout_ms / 1000, (long)(timeout_ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0) {
    }
    return 0;
}

static const db_driver DRIVER = {
    lite_close, lite_exec, lite_prepare, lite_bind, lite_step, lite_column_null, lite_column_int64,
    lite_column_double, lite_column_text, lite_column_blob, lite_done, lite_changes, lite_unique_violation,
    lite_begin, lite_commit, lite_rollback, lite_notify, lite_listen, lite_wait,
};
