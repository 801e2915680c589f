/* db_pg.c — the PostgreSQL driver of db.h, through libpq.
 *
 * libpq is loaded (dlopen of libpq.so.5) when the first connection is opened, not linked: linking
 * it would load it and about twenty libraries it needs (TLS, Kerberos, LDAP…) at every start of
 * chidori, which every run and every isolated worker pays (src/serve/mhd_lazy.c does the same for
 * libmicrohttpd). Only its declarations come from libpq-fe.h.
 *
 * Owns one connection. Statements are sent with PQexecParams (`?`/`?N` numbered to `$N` once per
 * statement, values as text, int64 as int8, blobs as binary bytea) and their rows read as text;
 * nothing is prepared on the server, so a reconnection loses nothing. A connection that broke
 * outside a transaction is reset before the next statement; one that broke inside a transaction
 * fails every statement until db_rollback (the transaction is gone with the connection: going on
 * would commit half of it). Notices (CREATE … IF NOT EXISTS) are not printed.
 *
 * Trusts libpq and the server to answer the protocol; trusts nothing of the URL beyond handing it
 * to libpq, and prints it only redacted (db_url_redacted).
 */
#define _GNU_SOURCE
#include "serve/db.h"
#include "util/buf.h"
#include "util/clock.h"

#include <dlfcn.h>
#include <errno.h>
#include <libpq-fe.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define INT8OID 20
#define BYTEAOID 17

static struct {
    PGconn *(*connectdbParams)(const char *const *, const char *const *, int);
    ConnStatusType (*status)(const PGconn *);
    char *(*errorMessage)(const PGconn *);
    void (*finish)(PGconn *);
    void (*reset)(PGconn *);
    PGresult *(*exec)(PGconn *, const char *);
    PGresult *(*execParams)(PGconn *, const char *, int, const Oid *, const char *const *, const int *, const int *,
                            int);
    ExecStatusType (*resultStatus)(const PGresult *);
    char *(*resultErrorMessage)(const PGresult *);
    char *(*resultErrorField)(const PGresult *, int);
    void (*clear)(PGresult *);
    int (*ntuples)(const PGresult *);
    int (*getisnull)(const PGresult *, int, int);
    char *(*getvalue)(const PGresult *, int, int);
    int (*getlength)(const PGresult *, int, int);
    char *(*cmdTuples)(PGresult *);
    unsigned char *(*unescapeBytea)(const unsigned char *, size_t *);
    void (*freemem)(void *);
    int (*socket)(const PGconn *);
    PQconninfoOption *(*conninfoParse)(const char *, char **);
    void (*conninfoFree)(PQconninfoOption *);
    int (*consumeInput)(PGconn *);
    PGnotify *(*notifies)(PGconn *);
    char *(*escapeIdentifier)(PGconn *, const char *, size_t);
    PQnoticeProcessor (*setNoticeProcessor)(PGconn *, PQnoticeProcessor, void *);
    int loaded;
} pq;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static void load(void)
{
    void *lib = dlopen("libpq.so.5", RTLD_NOW | RTLD_LOCAL);
    if (!lib) return;
#define BIND(field, name)                                                                                            \
    do {                                                                                                             \
        *(void **)&pq.field = dlsym(lib, name);                                                                       \
        if (!pq.field) return;                                                                                        \
    } while (0)
    BIND(connectdbParams, "PQconnectdbParams");
    BIND(status, "PQstatus");
    BIND(errorMessage, "PQerrorMessage");
    BIND(finish, "PQfinish");
    BIND(reset, "PQreset");
    BIND(exec, "PQexec");
    BIND(execParams, "PQexecParams");
    BIND(resultStatus, "PQresultStatus");
    BIND(resultErrorMessage, "PQresultErrorMessage");
    BIND(resultErrorField, "PQresultErrorField");
    BIND(clear, "PQclear");
    BIND(ntuples, "PQntuples");
    BIND(getisnull, "PQgetisnull");
    BIND(getvalue, "PQgetvalue");
    BIND(getlength, "PQgetlength");
    BIND(cmdTuples, "PQcmdTuples");
    BIND(unescapeBytea, "PQunescapeBytea");
    BIND(freemem, "PQfreemem");
    BIND(conninfoParse, "PQconninfoParse");
    BIND(conninfoFree, "PQconninfoFree");
    BIND(socket, "PQsocket");
    BIND(consumeInput, "PQconsumeInput");
    BIND(notifies, "PQnotifies");
    BIND(escapeIdentifier, "PQescapeIdentifier");
    BIND(setNoticeProcessor, "PQsetNoticeProcessor");
#undef BIND
    pq.loaded = 1;
}

typedef struct pg {
    db base;
    PGconn *c;
    bool in_tx, lost_in_tx;
    int64_t changes;
    char sqlstate[6];
} pg;

typedef struct pstmt {
    db_stmt base;
    char *sql; /* numbered */
    int n;     /* parameters */
    char **values;
    int *lengths, *formats;
    Oid *types;
    PGresult *res;
    int row, rows;
    bool ran;
    unsigned char *blob; /* the last column_blob's bytes (PQfreemem) */
} pstmt;

static const db_driver DRIVER;

/* libpq's message, its trailing newline and tabs tidied to one line. */
static char *tidy(const char *m)
{
    char *s = xstrdup(m && *m ? m : "unknown error");
    size_t n = strlen(s);
    while (n && (s[n - 1] == '\n' || s[n - 1] == ' ')) s[--n] = '\0';
    for (char *p = s; *p; p++)
        if (*p == '\n' || *p == '\t') *p = ' ';
    return s;
}

static void quiet(void *arg, const char *message) {}

/* m (owned) with every copy of what must not be printed replaced: the raw URL by its redacted
 * form, the password (as libpq decoded it) by ***. */
static char *scrub(char *m, const char *url, const char *shown, const char *password)
{
    const char *const find[2] = {url, password};
    const char *const put[2] = {shown, "***"};
    for (int k = 0; k < 2; k++) {
        if (!find[k] || !*find[k]) continue;
        size_t fl = strlen(find[k]);
        buf b = {0};
        for (const char *q = m;;) {
            const char *hit = strstr(q, find[k]);
            if (!hit) {
                buf_puts(&b, q);
                break;
            }
            buf_append(&b, q, (size_t)(hit - q));
            buf_puts(&b, put[k]);
            q = hit + fl;
        }
        free(m);
        m = buf_steal(&b);
    }
    return m;
}

db *db_pg_open(const char *url, char **error)
{
    char *shown = db_url_redacted(url);
    pthread_once(&load_once, load);
    if (!pq.loaded) {
        *error = xasprintf("cannot use the PostgreSQL database %s: PostgreSQL's client library (libpq.so.5) could not "
                           "be loaded; install it (Debian: apt-get install libpq5; scripts/setup.sh does)", shown);
        free(shown);
        return NULL;
    }
    /* Parsed first, by libpq itself: a URL it cannot parse is reported without libpq's text, which
     * quotes the offending part (a password among it). */
    char *perr = NULL;
    PQconninfoOption *opts = pq.conninfoParse(url, &perr);
    if (!opts) {
        if (perr) pq.freemem(perr);
        *error = xasprintf("cannot use the PostgreSQL database %s: the URL cannot be parsed (check its percent-encoding, "
                           "brackets and parameters; a password with special characters must be percent-encoded)",
                           shown);
        free(shown);
        return NULL;
    }
    char *password = NULL;
    for (PQconninfoOption *o = opts; o->keyword; o++)
        if (!strcmp(o->keyword, "password") && o->val && *o->val) password = xstrdup(o->val);
    pq.conninfoFree(opts);
    /* connect_timeout first: the URL's own (expanded from dbname) overrides it */
    const char *const keys[] = {"connect_timeout", "fallback_application_name", "dbname", NULL};
    const char *const values[] = {"10", "chidori", url, NULL};
    PGconn *c = pq.connectdbParams(keys, values, 1);
    if (!c || pq.status(c) != CONNECTION_OK) {
        char *why = scrub(tidy(c ? pq.errorMessage(c) : "out of memory"), url, shown, password);
        *error = xasprintf("cannot connect to the PostgreSQL database %s: %s; check the URL (--db or CHIDORI_DB_URL) "
                           "and that the server is running and accepts this user", shown, why);
        free(why);
        free(shown);
        free(password);
        if (c) pq.finish(c);
        return NULL;
    }
    free(password);
    pq.setNoticeProcessor(c, quiet, NULL);
    pg *p = xcalloc(1, sizeof *p);
    p->base.drv = &DRIVER;
    p->base.kind = DB_POSTGRES;
    p->base.describe = shown;
    p->c = c;
    return &p->base;
}

static void pg_close(db *d)
{
    pg *p = (pg *)d;
    if (p->c) pq.finish(p->c);
    free(p->base.describe);
    free(p);
}

/* Before a statement: a connection lost outside a transaction is reset; inside one, refused. */
static int usable(pg *p, char **error)
{
    if (p->lost_in_tx) {
        *error = xstrdup("database: the connection to PostgreSQL was lost during a transaction; it was not committed");
        return -1;
    }
    if (pq.status(p->c) != CONNECTION_OK) {
        if (p->in_tx) {
            p->lost_in_tx = true;
            return usable(p, error);
        }
        pq.reset(p->c);
        if (pq.status(p->c) != CONNECTION_OK) {
            char *why = tidy(pq.errorMessage(p->c));
            *error = xasprintf("database: the connection to PostgreSQL was lost and could not be made again: %s", why);
            free(why);
            return -1;
        }
    }
    return 0;
}

/* A result's outcome: 0 (ok: rows or a command), -1 with *error; changes and SQLSTATE noted. */
static int outcome(pg *p, PGresult *r, char **error)
{
    ExecStatusType st = r ? pq.resultStatus(r) : PGRES_FATAL_ERROR;
    p->sqlstate[0] = '\0';
    if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK) {
        const char *n = pq.cmdTuples(r);
        p->changes = n && *n ? strtoll(n, NULL, 10) : 0;
        return 0;
    }
    const char *state = r ? pq.resultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
    if (state) snprintf(p->sqlstate, sizeof p->sqlstate, "%s", state);
    char *why = tidy(r ? pq.resultErrorMessage(r) : pq.errorMessage(p->c));
    *error = xasprintf("database: %s", why);
    free(why);
    if (p->in_tx && pq.status(p->c) != CONNECTION_OK) p->lost_in_tx = true;
    return -1;
}

static int pg_exec(db *d, const char *sql, char **error)
{
    pg *p = (pg *)d;
    if (usable(p, error) < 0) return -1;
    PGresult *r = pq.exec(p->c, sql);
    int rc = outcome(p, r, error);
    if (r) pq.clear(r);
    return rc;
}

static db_stmt *pg_prepare(db *d, const char *sql, bool keep, char **error)
{
    pstmt *s = xcalloc(1, sizeof *s);
    s->base.d = d;
    s->sql = db_sql_numbered(sql, &s->n);
    if (s->n > 0) {
        s->values = xcalloc((size_t)s->n, sizeof *s->values);
        s->lengths = xcalloc((size_t)s->n, sizeof *s->lengths);
        s->formats = xcalloc((size_t)s->n, sizeof *s->formats);
        s->types = xcalloc((size_t)s->n, sizeof *s->types);
    }
    return &s->base;
}

static void pg_bind(db_stmt *bs, int i, int type, const void *v, size_t n, int64_t iv)
{
    pstmt *s = (pstmt *)bs;
    if (i < 1 || i > s->n) return;
    i--;
    free(s->values[i]);
    s->values[i] = NULL;
    s->formats[i] = 0;
    s->types[i] = 0;
    s->lengths[i] = 0;
    switch (type) {
    case DB_BIND_INT64:
        s->values[i] = xasprintf("%lld", (long long)iv);
        s->types[i] = INT8OID;
        break;
    case DB_BIND_TEXT:
        s->values[i] = xstrndup(v, n);
        break;
    case DB_BIND_BLOB:
        s->values[i] = xmalloc(n ? n : 1);
        memcpy(s->values[i], v, n);
        s->lengths[i] = (int)n;
        s->formats[i] = 1;
        s->types[i] = BYTEAOID;
        break;
    default: break;
    }
}

static int pg_step(db_stmt *bs, char **error)
{
    pstmt *s = (pstmt *)bs;
    pg *p = (pg *)bs->d;
    if (!s->ran) {
        s->ran = true;
        if (usable(p, error) < 0) return -1;
        s->res = pq.execParams(p->c, s->sql, s->n, s->types, (const char *const *)s->values, s->lengths, s->formats, 0);
        if (outcome(p, s->res, error) < 0) return -1;
        s->rows = pq.resultStatus(s->res) == PGRES_TUPLES_OK ? pq.ntuples(s->res) : 0;
        s->row = 0;
    } else {
        s->row++;
    }
    if (s->blob) pq.freemem(s->blob), s->blob = NULL;
    return s->row < s->rows ? 1 : 0;
}

static bool have(pstmt *s, int col) { return s->res && s->row < s->rows && !pq.getisnull(s->res, s->row, col); }

static bool pg_column_null(db_stmt *bs, int col) { return !have((pstmt *)bs, col); }

static int64_t pg_column_int64(db_stmt *bs, int col)
{
    pstmt *s = (pstmt *)bs;
    if (!have(s, col)) return 0;
    const char *v = pq.getvalue(s->res, s->row, col);
    if (!strcmp(v, "t")) return 1; /* a boolean */
    return (int64_t)strtoll(v, NULL, 10);
}

static double pg_column_double(db_stmt *bs, int col)
{
    pstmt *s = (pstmt *)bs;
    return have(s, col) ? strtod(pq.getvalue(s->res, s->row, col), NULL) : 0;
}

static const char *pg_column_text(db_stmt *bs, int col, size_t *n)
{
    pstmt *s = (pstmt *)bs;
    if (!have(s, col)) {
        if (n) *n = 0;
        return NULL;
    }
    if (n) *n = (size_t)pq.getlength(s->res, s->row, col);
    return pq.getvalue(s->res, s->row, col);
}

static const void *pg_column_blob(db_stmt *bs, int col, size_t *n)
{
    pstmt *s = (pstmt *)bs;
    if (n) *n = 0;
    if (!have(s, col)) return NULL;
    if (s->blob) pq.freemem(s->blob), s->blob = NULL;
    size_t len = 0;
    s->blob = pq.unescapeBytea((const unsigned char *)pq.getvalue(s->res, s->row, col), &len);
    if (n) *n = len;
    return s->blob;
}

static void pg_done(db_stmt *bs)
{
    pstmt *s = (pstmt *)bs;
    if (s->res) pq.clear(s->res);
    if (s->blob) pq.freemem(s->blob);
    for (int i = 0; i < s->n; i++) free(s->values[i]);
    free(s->values);
    free(s->lengths);
    free(s->formats);
    free(s->types);
    free(s->sql);
    free(s);
}

static int64_t pg_changes(db *d) { return ((pg *)d)->changes; }
static bool pg_unique_violation(db *d) { return !strcmp(((pg *)d)->sqlstate, "23505"); }

static int pg_begin(db *d, db_tx kind, char **error)
{
    pg *p = (pg *)d;
    int rc = pg_exec(d, "BEGIN", error);
    if (rc < 0) return -1;
    p->in_tx = true;
    p->lost_in_tx = false;
    if (kind == DB_TX_IMMEDIATE) {
        char sql[64];
        snprintf(sql, sizeof sql, "SELECT pg_advisory_xact_lock(%d)", DB_WRITER_LOCK);
        if (pg_exec(d, sql, error) < 0) {
            db_rollback(d);
            return -1;
        }
    }
    return 0;
}

static int pg_commit(db *d, char **error)
{
    pg *p = (pg *)d;
    int rc = pg_exec(d, "COMMIT", error);
    if (rc == 0) p->in_tx = false;
    return rc;
}

static void pg_rollback(db *d)
{
    pg *p = (pg *)d;
    if (!p->lost_in_tx && pq.status(p->c) == CONNECTION_OK) {
        PGresult *r = pq.exec(p->c, "ROLLBACK");
        if (r) pq.clear(r);
    }
    p->in_tx = p->lost_in_tx = false;
}

static int pg_notify(db *d, const char *channel, const char *payload, char **error)
{
    db_stmt *s = pg_prepare(d, "SELECT pg_notify(?, ?)", false, error);
    pg_bind(s, 1, DB_BIND_TEXT, channel, strlen(channel), 0);
    pg_bind(s, 2, DB_BIND_TEXT, payload, strlen(payload), 0);
    int rc = pg_step(s, error);
    pg_done(s);
    return rc < 0 ? -1 : 0;
}

static int pg_listen(db *d, const char *channel, char **error)
{
    pg *p = (pg *)d;
    if (usable(p, error) < 0) return -1;
    char *id = pq.escapeIdentifier(p->c, channel, strlen(channel));
    if (!id) {
        *error = xasprintf("database: cannot listen to channel %s", channel);
        return -1;
    }
    char *sql = xasprintf("LISTEN %s", id);
    pq.freemem(id);
    int rc = pg_exec(d, sql, error);
    free(sql);
    return rc;
}

static int pg_wait(db *d, int timeout_ms, char **channel, char **payload, char **error)
{
    pg *p = (pg *)d;
    int64_t deadline = clock_monotonic_ms() + (timeout_ms > 0 ? timeout_ms : 0);
    for (;;) {
        if (!pq.consumeInput(p->c)) {
            char *why = tidy(pq.errorMessage(p->c));
            *error = xasprintf("database: waiting for notifications: %s", why);
            free(why);
            return -1;
        }
        PGnotify *n = pq.notifies(p->c);
        if (n) {
            *channel = xstrdup(n->relname);
            *payload = xstrdup(n->extra ? n->extra : "");
            pq.freemem(n);
            return 1;
        }
        int64_t left = deadline - clock_monotonic_ms();
        if (left <= 0) return 0;
        struct pollfd pfd = {pq.socket(p->c), POLLIN, 0};
        if (pfd.fd < 0) {
            *error = xstrdup("database: waiting for notifications: the connection is closed");
            return -1;
        }
        if (poll(&pfd, 1, (int)left) < 0 && errno != EINTR) {
            *error = xasprintf("database: waiting for notifications: %s", strerror(errno));
            return -1;
        }
    }
}

static const db_driver DRIVER = {
    pg_close, pg_exec, pg_prepare, pg_bind, pg_step, pg_column_null, pg_column_int64,
    pg_column_double, pg_column_text, pg_column_blob, pg_done, pg_changes, pg_unique_violation,
    pg_begin, pg_commit, pg_rollback, pg_notify, pg_listen, pg_wait,
};
