/* test_db.c — db.h on both drivers: the same statements against SQLite (:memory:, always) and
 * PostgreSQL (when PG_TEST_URL names a database; tests/cases_pg.py runs these with one), plus the
 * driver-neutral helpers (placeholder numbering, URL redaction). */
#include "unit.h"
#include "serve/db.h"
#include "util/buf.h"

#include <stdlib.h>

TEST(db_placeholders_are_numbered_outside_quotes)
{
    int n = 0;
    char *s = db_sql_numbered("SELECT ? , '?', \"a?\" FROM t WHERE a = ? AND b = ?", &n);
    CHECK_STR(s, "SELECT $1 , '?', \"a?\" FROM t WHERE a = $2 AND b = $3");
    CHECK(n == 3);
    free(s);
    s = db_sql_numbered("UPDATE t SET a = ?3 WHERE id = ?1 AND b = ?2 AND c = 'it''s ?'", &n);
    CHECK_STR(s, "UPDATE t SET a = $3 WHERE id = $1 AND b = $2 AND c = 'it''s ?'");
    CHECK(n == 3);
    free(s);
    s = db_sql_numbered("SELECT 1", &n);
    CHECK_STR(s, "SELECT 1");
    CHECK(n == 0);
    free(s);
}

TEST(db_urls_are_redacted_and_recognized)
{
    char *r = db_url_redacted("postgresql://alice:s3cret@db.example:5432/app?sslmode=require");
    CHECK_STR(r, "postgresql://alice:***@db.example:5432/app?sslmode=require");
    free(r);
    r = db_url_redacted("postgres://alice@/app?host=/run/pg&password=s3cret&x=1");
    CHECK_STR(r, "postgres://alice@/app?host=/run/pg&password=***&x=1");
    free(r);
    r = db_url_redacted("postgresql:///app");
    CHECK_STR(r, "postgresql:///app");
    free(r);
    r = db_url_redacted("postgresql://a:pa/ss@h/d"); /* a raw slash, which should have been %2F */
    CHECK_STR(r, "postgresql://a:***@h/d");
    free(r);
    r = db_url_redacted("postgresql://a:b:c@h/d"); /* a password holding a colon */
    CHECK(!strstr(r, "b:c") && strstr(r, "***"));
    free(r);
    CHECK(db_is_url("postgresql://x") && db_is_url("postgres://x"));
    CHECK(!db_is_url("/tmp/postgresql://x") && !db_is_url("sessions.sqlite3") && !db_is_url(NULL));
}

/* The same checks on either driver (a failed CHECK marks the calling test failed). */
static void exercise(db *d, const char *label)
{
    char *error = NULL;
    char sql[512];
    snprintf(sql, sizeof sql,
             "DROP TABLE IF EXISTS unit_t; CREATE TABLE unit_t (id %s, name TEXT UNIQUE, n %s, b %s%s)",
             db_sql(d, DB_SQL_ID_COLUMN), db_sql(d, DB_SQL_BIGINT), db_sql(d, DB_SQL_BLOB),
             db_sql(d, DB_SQL_ROWID_COLUMN));
    CHECK(db_exec(d, sql, &error) == 0);
    db_stmt *s = db_prepare(d, "INSERT INTO unit_t (name, n, b) VALUES (?, ?, ?)", &error);
    CHECK(s);
    const unsigned char bytes[] = {0, 1, 2, 255, '\'', '?'};
    db_bind_text(s, 1, "it's ?1 \xc3\xa9", (size_t)-1);
    db_bind_int64(s, 2, (int64_t)1 << 53);
    db_bind_blob(s, 3, bytes, sizeof bytes);
    CHECK(db_step(s, &error) == 0);
    db_done(s);
    CHECK(db_changes(d) == 1);
    /* a duplicate is told apart from other failures */
    s = db_prepare_static(d, "INSERT INTO unit_t (name, n) VALUES (?1, ?2)", &error);
    CHECK(s);
    db_bind_text(s, 1, "it's ?1 \xc3\xa9", (size_t)-1);
    db_bind_null(s, 2);
    CHECK(db_step(s, &error) < 0 && error && strstr(error, "database: "));
    free(error), error = NULL;
    CHECK(db_last_was_unique_violation(d));
    db_done(s);
    /* kept statements are reused */
    db_stmt *again = db_prepare_static(d, "INSERT INTO unit_t (name, n) VALUES (?1, ?2) ON CONFLICT DO NOTHING", &error);
    CHECK(again);
    db_bind_text(again, 1, "second", (size_t)-1);
    db_bind_null(again, 2);
    CHECK(db_step(again, &error) == 0);
    db_done(again);
    /* typed reads */
    s = db_prepare(d, "SELECT name, n, b, octet_length(name), n IS NULL FROM unit_t ORDER BY rowid", &error);
    CHECK(s);
    CHECK(db_step(s, &error) == 1);
    size_t len = 0;
    CHECK_STR(db_column_text(s, 0, &len), "it's ?1 \xc3\xa9");
    CHECK(len == 10);
    CHECK(db_column_int64(s, 1) == (int64_t)1 << 53);
    const unsigned char *got = db_column_blob(s, 2, &len);
    CHECK(len == sizeof bytes && !memcmp(got, bytes, sizeof bytes));
    CHECK(db_column_int64(s, 3) == 10);
    CHECK(db_column_int64(s, 4) == 0);
    CHECK(db_step(s, &error) == 1);
    CHECK(db_column_null(s, 1) && db_column_int64(s, 1) == 0 && db_column_text(s, 1, NULL) == NULL);
    CHECK(db_column_int64(s, 4) == 1);
    CHECK(db_step(s, &error) == 0);
    db_done(s);
    /* a rolled-back transaction leaves nothing; a committed one stays */
    int64_t count = -1;
    CHECK(db_begin(d, DB_TX_IMMEDIATE, &error) == 0);
    CHECK(db_exec(d, "DELETE FROM unit_t", &error) == 0);
    db_rollback(d);
    CHECK(db_query_int64(d, "SELECT count(*) FROM unit_t WHERE name <> ?", &count, &error, "t", "none") == 1);
    CHECK(count == 2);
    CHECK(db_begin(d, DB_TX_DEFERRED, &error) == 0);
    CHECK(db_query_int64(d, "DELETE FROM unit_t WHERE name = ?", NULL, &error, "t", "second") == 0);
    CHECK(db_changes(d) == 1);
    CHECK(db_commit(d, &error) == 0);
    CHECK(db_query_int64(d, "SELECT count(*) FROM unit_t", &count, &error, "") == 1 && count == 1);
    /* a statement that fails says why, and the connection goes on */
    CHECK(db_query_int64(d, "SELECT nope FROM unit_t", &count, &error, "") < 0 && error);
    free(error), error = NULL;
    CHECK(db_query_int64(d, "SELECT count(*) FROM unit_t", &count, &error, "") == 1 && count == 1);
    CHECK(db_exec(d, "DROP TABLE unit_t", &error) == 0);
    (void)label;
}

TEST(db_both_sqlite)
{
    char *error = NULL;
    db *d = db_open(":memory:", &error);
    CHECK(d && db_kind_of(d) == DB_SQLITE);
    exercise(d, "sqlite");
    /* no notifications on SQLite: notify is a no-op, a wait times out */
    char *ch = NULL, *pl = NULL;
    CHECK(db_notify(d, "c", "x", &error) == 0 && db_listen(d, "c", &error) == 0);
    CHECK(db_wait_notification(d, 10, &ch, &pl, &error) == 0 && !ch);
    CHECK_STR(db_sql(d, DB_SQL_SKIP_LOCKED), "");
    db_close(d);
}

/* SQLite keeps its transaction statements parsed between transactions: one that fails (a COMMIT
 * with no transaction, a BEGIN inside one) says why and leaves the kept statement usable, and the
 * transactions after it commit and roll back as before. */
TEST(db_sqlite_transaction_statements_survive_their_failures)
{
    char *error = NULL;
    db *d = db_open(":memory:", &error);
    CHECK(d && db_exec(d, "CREATE TABLE t (n INTEGER)", &error) == 0);
    for (int round = 0; round < 3; round++) {
        CHECK(db_commit(d, &error) < 0 && error && strstr(error, "database: ") && strstr(error, "no transaction"));
        free(error), error = NULL;
        CHECK(db_begin(d, DB_TX_IMMEDIATE, &error) == 0);
        CHECK(db_begin(d, DB_TX_DEFERRED, &error) < 0 && error && strstr(error, "within a transaction"));
        free(error), error = NULL;
        CHECK(db_exec(d, "INSERT INTO t VALUES (1)", &error) == 0);
        CHECK(db_commit(d, &error) == 0);
        CHECK(db_begin(d, round % 2 ? DB_TX_DEFERRED : DB_TX_IMMEDIATE, &error) == 0);
        CHECK(db_exec(d, "INSERT INTO t VALUES (2)", &error) == 0);
        db_rollback(d);
        db_rollback(d); /* none open: nothing happens */
    }
    int64_t n = -1;
    CHECK(db_query_int64(d, "SELECT count(*) FROM t WHERE n = ?", &n, &error, "i", (int64_t)1) == 1 && n == 3);
    CHECK(db_query_int64(d, "SELECT count(*) FROM t WHERE n = ?", &n, &error, "i", (int64_t)2) == 1 && n == 0);
    db_close(d);
}

TEST(db_both_postgres)
{
    const char *url = getenv("PG_TEST_URL");
    if (!url) {
        printf("(db_both_postgres: PG_TEST_URL unset: tests/cases_pg.py runs it against a throwaway cluster)\n");
        return;
    }
    char *error = NULL;
    db *d = db_open(url, &error);
    if (!d) printf("%s\n", error);
    CHECK(d && db_kind_of(d) == DB_POSTGRES);
    exercise(d, "postgres");
    CHECK_STR(db_sql(d, DB_SQL_SKIP_LOCKED), " FOR UPDATE SKIP LOCKED");
    /* LISTEN/NOTIFY between two connections: delivered at commit, not before */
    db *listener = db_open(url, &error);
    CHECK(listener);
    CHECK(db_listen(listener, "unit chan", &error) == 0);
    char *ch = NULL, *pl = NULL;
    CHECK(db_wait_notification(listener, 50, &ch, &pl, &error) == 0);
    CHECK(db_begin(d, DB_TX_DEFERRED, &error) == 0);
    CHECK(db_notify(d, "unit chan", "payload 'one'", &error) == 0);
    CHECK(db_wait_notification(listener, 100, &ch, &pl, &error) == 0);
    CHECK(db_commit(d, &error) == 0);
    CHECK(db_wait_notification(listener, 5000, &ch, &pl, &error) == 1);
    CHECK_STR(ch, "unit chan");
    CHECK_STR(pl, "payload 'one'");
    free(ch);
    free(pl);
    db_close(listener);
    db_close(d);
}
