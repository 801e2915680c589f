"""tests/serve_db.py — a serve case's own look into the database behind a state folder, on the
backend its variant runs on: the folder's SQLite file (state/sessions.sqlite3), or, under
cases_pg.py's OnPostgres variant (the one with database_of), the PostgreSQL database that stands
for that folder. So a case that reads or edits stored rows is written once and runs on both.

Trusts: the test's own values (quoted here for psql, never taken from a server's output).
"""
import os
import sqlite3
import time


def _pg_database(v, state_dir):
    """The PostgreSQL database standing for state_dir, or None when v runs on SQLite."""
    database_of = getattr(v, "database_of", None)
    return database_of(state_dir) if database_of else None


def _literal(value):
    return "NULL" if value is None else "'" + str(value).replace("'", "''") + "'"


def set_session_column(v, state_dir, sid, column, value):
    """UPDATE sessions SET <column> = value WHERE id = sid, under a running or a stopped server."""
    assert column.isidentifier(), column
    dbname = _pg_database(v, state_dir)
    if dbname:
        import pgserver
        pgserver.psql(dbname, f"UPDATE sessions SET {column} = {_literal(value)} WHERE id = {_literal(sid)}")
        return
    db = sqlite3.connect(os.path.join(state_dir, "sessions.sqlite3"))
    try:
        db.execute(f"UPDATE sessions SET {column} = ? WHERE id = ?", (value, sid))
        db.commit()
    finally:
        db.close()


def stored_log_bytes(v, state_dir, sid):
    """What a session's stored records weigh as CHIDORI_LOG_MAX_BYTES counts them: each record's
    bytes plus one (its line, were the log a records.jsonl)."""
    dbname = _pg_database(v, state_dir)
    if dbname:
        import pgserver
        out = pgserver.rows(dbname, "SELECT sum(octet_length(record) + 1) FROM records"
                                    f" WHERE session_id = {_literal(sid)}")
        return int(out[0][0]) if out and out[0][0] else None
    db = sqlite3.connect(os.path.join(state_dir, "sessions.sqlite3"))
    try:
        return db.execute("SELECT sum(length(CAST(record AS BLOB)) + 1) FROM records WHERE session_id = ?",
                          (sid,)).fetchone()[0]
    finally:
        db.close()


def hold_lease(v, state_dir, sid, owner, for_ms):
    """Make the session's lease held by node `owner` (that runs nothing) for for_ms from now: what a
    node cut off between its claim and its release leaves behind."""
    until = int(time.time() * 1000) + int(for_ms)
    sql = (f"UPDATE session_leases SET owner = {_literal(owner)}, host = 'elsewhere', pid = 1, epoch = epoch + 1,"
           f" expires_ms = {until} WHERE session_id = {_literal(sid)}")
    dbname = _pg_database(v, state_dir)
    if dbname:
        import pgserver
        pgserver.psql(dbname, sql)
        return
    db = sqlite3.connect(os.path.join(state_dir, "sessions.sqlite3"))
    try:
        assert db.execute(sql).rowcount == 1, sid
        db.commit()
    finally:
        db.close()
