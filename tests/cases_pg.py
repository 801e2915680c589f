"""tests/cases_pg.py — `chidori serve` on PostgreSQL (docs/storage.md).

Two parts:

* The serve suite again, on PostgreSQL: every scripted case of the other tests/cases_*.py files
  that starts `chidori serve` (every case of cases_serve*.py, and those elsewhere whose source
  names Server, serving, serve_agent or the like) runs a second time
  as `pg_<its name>`, through a variant whose environment gives each server a PostgreSQL database
  of its own instead of its SQLite file: one database per state folder (or CHIDORI_DB_PATH) the
  case uses, so a case that restarts a server on its folder finds its sessions again, and two
  folders stay two databases. A case that reads or edits stored rows does it through
  tests/serve_db.py, which goes to that database under this variant. The few cases that open the
  SQLite file themselves are left out (SQLITE_ONLY says why); their PostgreSQL counterparts are
  the cases of the second part. The
  crash test of cases_crash.py (PORTED) runs too: its reader of the SQLite file is given a
  PostgreSQL twin for the thread that runs the PostgreSQL pass (the SQLite pass, in other threads,
  keeps the original).
* Cases of PostgreSQL's own: migrations (a version-1 database upgraded, a newer one refused, a
  database that is not chidori's refused), damaged rows, bad URLs (no password in any message),
  the memory cap, and two servers on one database seeing each other's sessions.

The cluster is tests/pgserver.py's: one per test run, started at the first case that needs it.
"""
import importlib
import inspect
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

import pgserver
from cases import Skip
from cases_serve import Server, create

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The modules whose serve cases run again on PostgreSQL: every tests/cases_*.py but this one.
MODULES = sorted(os.path.basename(p)[:-3] for p in os.listdir(os.path.join(ROOT, "tests"))
                 if p.startswith("cases_") and p.endswith(".py") and p != "cases_pg.py")
SERVES = re.compile(r"\b(Server|serving|serve_agent|serve_prompt_events|serve_hung|bounded)\(")
# Cases that read or edit the SQLite file with Python's sqlite3: not meaningful on PostgreSQL.
SQLITE_ONLY = re.compile(r"sqlite3\.connect|sessions\.sqlite3")
# ... but for these: the crash test's only SQLite access is a reader given a PostgreSQL twin below;
# the memory case only names a CHIDORI_DB_PATH, which OnPostgres turns into a database of its own.
# (Cases that read or edit stored rows through tests/serve_db.py need no entry: it has both forms.)
PORTED = {"case_crash_serve_killed_at_random_points", "case_serve_memory_does_not_grow_with_a_sessions_log"}
_here = threading.local()  # .variant: the OnPostgres of the case this thread runs


def need_cluster():
    why = pgserver.unavailable()
    if why:
        raise Skip(why)
    try:
        pgserver.cluster()
    except RuntimeError as e:
        raise Skip(str(e)) from None


class OnPostgres:
    """A test variant whose processes use PostgreSQL: each state folder (or CHIDORI_DB_PATH) a
    case names gets a database of its own, given as CHIDORI_DB_URL."""

    def __init__(self, v):
        self._v = v
        self._dbs = {}  # key -> (url, database name)

    def __getattr__(self, name):
        return getattr(self._v, name)

    def env(self, extra=None):
        extra = dict(extra or {})
        key = extra.pop("CHIDORI_DB_PATH", None) or extra.get("CHIDORI_STATE_DIR") or "(default)"
        if key not in self._dbs:
            self._dbs[key] = pgserver.database()
        env = self._v.env(extra)
        env.pop("CHIDORI_DB_PATH", None)
        env["CHIDORI_DB_URL"] = self._dbs[key][0]
        return env

    def database_of(self, state_dir):
        """The name of the database that stands for the state folder's SQLite file."""
        return self._dbs[state_dir][1]


def _on_postgres(case):
    def run(v):
        need_cluster()
        _here.variant = OnPostgres(v)
        try:
            case(_here.variant)
        finally:
            _here.variant = None
    run.__name__ = "case_pg_" + case.__name__[5:]
    run.__doc__ = f"{case.__name__} on PostgreSQL"
    return run


def _serve_cases():
    out = {}
    for name in MODULES:
        mod = importlib.import_module(name)
        for attr, fn in sorted(vars(mod).items()):
            if not attr.startswith("case_") or not callable(fn) or getattr(fn, "__module__", None) != name:
                continue
            try:
                src = inspect.getsource(fn)
            except (OSError, TypeError):
                continue
            if (name.startswith("cases_serve") or SERVES.search(src)) and (attr in PORTED or not SQLITE_ONLY.search(src)):
                wrapped = _on_postgres(fn)
                out[wrapped.__name__] = wrapped
    return out


def _read_database_pg(dbname, where):
    """cases_crash.read_database on PostgreSQL: the same checks of every session row and record."""
    sessions = {}
    for sid, status, inp in pgserver.rows(dbname, "SELECT id, status, input FROM sessions"):
        json.loads(inp)
        assert status in ("running", "queued", "completed", "failed", "cancelled", "paused", "awaitingapproval"), \
            f"{where}: session {sid} has status {status}"
        sessions[sid] = (status, [])
    seen = set()
    for sid, seq, text, pos in pgserver.rows(dbname, "SELECT session_id, seq, record, pos FROM records"
                                                     " ORDER BY session_id, pos"):
        seq, rec = int(seq), json.loads(text)
        assert rec["seq"] == seq, f"{where}: session {sid}: record {seq} says seq {rec['seq']}"
        assert (sid, pos) not in seen, f"{where}: session {sid}: two records at position {pos}"
        seen.add((sid, pos))
        assert sid in sessions, f"{where}: records of an unknown session {sid}"
        sessions[sid][1].append(rec)
    for sid, (_, recs) in sessions.items():
        seqs = [r["seq"] for r in recs]
        assert len(seqs) == len(set(seqs)), f"{where}: session {sid}: a seq twice: {sorted(seqs)}"
    return sessions


def _give_the_crash_reader_a_twin():
    import cases_crash
    original = cases_crash.read_database

    def read_database(path, where):
        pgv = getattr(_here, "variant", None)
        if pgv is None:
            return original(path, where)
        return _read_database_pg(pgv.database_of(os.path.dirname(path)), where)
    cases_crash.read_database = read_database


_give_the_crash_reader_a_twin()
globals().update(_serve_cases())


# ---------- PostgreSQL's own ----------

def server_on(v, url, *args, folder=None, env=None, agent=None):
    e = {"CHIDORI_DB_URL": url}
    e.update(env or {})
    kw = {"agent": agent} if agent else {}
    return Server(v, *args, env=e, folder=folder, **kw)


def start_fails(v, url, *args, env=None):
    """A server that must not start: (its exit code, its stderr)."""
    s = server_on(v, url, *args, env=env)
    try:
        s.start(expect_listen=False)
        code = s.proc.wait(timeout=60 * v.slow)
        s.reader.join(timeout=5)
        return code, s.stderr()
    finally:
        if s.proc.poll() is None:
            s.proc.kill()
        s.cleanup()


def case_pg_two_servers_share_one_database(v):
    """Two servers on one database (each with its own state folder): a session created on one is
    listed and viewed on the other, in both directions, and its call log reads the same."""
    need_cluster()
    url, _ = pgserver.database()
    a, b = server_on(v, url), server_on(v, url)
    try:
        a.start()
        b.start()
        one = create(a, {"input": {"name": "Ada"}})
        two = create(b, {"input": {"name": "Grace"}})
        assert one["status"] == two["status"] == "completed", (one, two)
        for s in (a, b):
            status, _, listing = s.request("GET", "/sessions")
            ids = [x["id"] for x in listing["sessions"]]
            assert status == 200 and one["id"] in ids and two["id"] in ids, (status, listing)
        status, _, seen = b.request("GET", f"/sessions/{one['id']}")
        assert status == 200 and seen["output"] == {"greeting": "Hello, Ada!"}, (status, seen)
        log_a = a.request("GET", f"/sessions/{one['id']}/checkpoint")[2]["call_log"]
        log_b = b.request("GET", f"/sessions/{one['id']}/checkpoint")[2]["call_log"]
        assert log_a == log_b and len(log_a) == one["call_count"], (log_a, log_b)
        a.stop()
        b.stop()
    finally:
        a.cleanup()
        b.cleanup()


def case_pg_cancel_stored_by_another_node_as_a_resume_starts_stands(v):
    """A cancel another node stores (a status change without the lease, as sessions_cancel does for
    a session it does not run) while a resume here is between its look at the session and its
    write of `running`: the cancel stands. The resume is a 409, and the session stays cancelled and
    runs no further (the write was unconditional: the run went on over a cancel whose client had
    its 200). The other node's write is the test's, held open in a transaction until the resume's
    write waits on its row; parked and replayed alike."""
    need_cluster()
    url, name = pgserver.database()
    for park_ms in ("0", "60000"):
        s = server_on(v, url, env={"CHIDORI_SERVE_PARK_MS": park_ms})
        other = None
        try:
            s.start()
            view = create(s, {"input": {"mode": "input"}})
            sid = view["id"]
            assert view["status"] == "paused", view
            other = pgserver.session(name)
            other.stdin.write("BEGIN;\nUPDATE sessions SET status = 'cancelled', error = 'cancelled'"
                              f" WHERE id = '{sid}' AND status = 'paused';\nSELECT 'held';\n")
            other.stdin.flush()
            assert other.stdout.readline().strip() == "held", park_ms
            answer = {}
            t = threading.Thread(target=lambda: answer.update(
                got=s.request("POST", f"/sessions/{sid}/resume", {"response": "late"})))
            t.start()
            waiting = "0"
            deadline = time.monotonic() + 20 * v.slow
            while waiting != "1" and time.monotonic() < deadline and t.is_alive():
                time.sleep(0.02)
                waiting = pgserver.psql(name, "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                                              " AND query LIKE 'UPDATE sessions SET status%'").strip()
            assert waiting == "1", (park_ms, "the resume's write never waited on the row", answer, s.stderr())
            other.stdin.write("COMMIT;\n")
            other.stdin.close()
            assert other.wait(timeout=30) == 0, park_ms
            t.join(timeout=30 * v.slow)
            status, _, got = answer["got"]
            assert status == 409 and "changed on another node" in got.get("error", ""), (park_ms, status, got)
            time.sleep(0.3)
            status, _, seen = s.request("GET", f"/sessions/{sid}")
            assert status == 200 and seen["status"] == "cancelled" and seen.get("output") is None, (park_ms, seen)
            stored = pgserver.rows(name, f"SELECT status FROM sessions WHERE id = '{sid}'")
            assert stored == [["cancelled"]], (park_ms, stored, s.stderr())
            held = pgserver.rows(name, f"SELECT expires_ms FROM session_leases WHERE session_id = '{sid}'")
            assert held in ([], [["0"]]), (park_ms, "the lease of the run that did not start is held", held)
            s.stop()
        finally:
            if other and other.poll() is None:
                other.kill()
            s.cleanup()


def case_pg_upgrades_a_version_1_database(v):
    """A PostgreSQL database of schema version 1 (records without an append position) is upgraded
    when the server opens it: version 2 after, each record's position its seq, the session whole."""
    need_cluster()
    url, name = pgserver.database()
    folder = tempfile.mkdtemp(prefix="chidori-pg-v1-")
    first, second = server_on(v, url, folder=folder), server_on(v, url, folder=folder)
    try:
        first.start()
        view = create(first, {"input": {"mode": "input"}})
        assert view["status"] == "paused", view
        first.stop()
        pgserver.psql(name, "DROP INDEX records_by_pos; ALTER TABLE records DROP COLUMN pos;"
                            " UPDATE schema_version SET version = 1")
        second.start()
        status, _, got = second.request("POST", f"/sessions/{view['id']}/resume", {"response": "yes"})
        assert status == 200 and got["status"] == "completed", (status, got)
        calls = [d for e, d in second.events("GET", f"/sessions/{view['id']}/stream") if e == "call"]
        assert [d["seq"] for d in calls] == list(range(1, got["call_count"] + 1)), calls
        second.stop()
        assert pgserver.psql(name, "SELECT version FROM schema_version").strip() == "2"
        rows = pgserver.psql(name, f"SELECT seq, pos FROM records WHERE session_id = '{view['id']}' ORDER BY seq")
        pairs = [tuple(map(int, line.split("|"))) for line in rows.split()]
        assert pairs[:view["call_count"]] == [(i, i) for i in range(1, view["call_count"] + 1)], pairs
    finally:
        first.cleanup()
        second.cleanup()
        shutil.rmtree(folder, ignore_errors=True)


def case_pg_database_of_a_newer_schema_is_refused(v):
    need_cluster()
    url, name = pgserver.database()
    pgserver.psql(name, "CREATE TABLE schema_version (version INTEGER NOT NULL); INSERT INTO schema_version VALUES (99)")
    code, err = start_fails(v, url)
    assert code == 1 and "schema version 99, but this chidori knows version 2 only" in err, (code, err)
    assert pgserver.psql(name, "SELECT count(*) FROM information_schema.tables WHERE table_name = 'sessions'"
                         ).strip() == "0", "the refused database was changed"


def case_pg_database_of_someone_else_is_refused(v):
    """Tables of another program and no chidori schema version: refused, not written into."""
    need_cluster()
    url, name = pgserver.database()
    pgserver.psql(name, "CREATE TABLE sessions (x INTEGER)")
    code, err = start_fails(v, url)
    assert code == 1 and "not a chidori session database" in err, (code, err)


def case_pg_damaged_rows_are_reported(v):
    """Rows edited behind the server's back are checked as read: a damaged record fails its session
    with an error naming it (the server carries on), a session row of an unknown status is named
    when the server loads its sessions."""
    need_cluster()
    url, name = pgserver.database()
    folder = tempfile.mkdtemp(prefix="chidori-pg-damaged-")
    first, second = server_on(v, url, folder=folder), server_on(v, url, folder=folder)
    try:
        first.start()
        view = create(first, {"input": {"mode": "input"}})
        first.stop()
        bad = json.dumps({"seq": "one", "function": "log", "args": {}}).replace("'", "''")
        pgserver.psql(name, f"UPDATE records SET record = '{bad}' WHERE session_id = '{view['id']}' AND seq = 1")
        second.start()
        status, _, got = second.request("POST", f"/sessions/{view['id']}/resume", {"response": "yes"})
        assert status == 200 and got["status"] == "failed", (status, got)
        assert "record 1: `seq` must be a positive integer" in got["error"], got
        assert second.request("POST", "/sessions", {"input": {}})[2]["status"] == "completed"
        pgserver.psql(name, "UPDATE records SET record = 'not json' WHERE seq = 1")
        status, _, got = second.request("GET", f"/sessions/{view['id']}/checkpoint")
        assert status >= 500 and "is not JSON" in json.dumps(got), (status, got)
        second.stop()
        pgserver.psql(name, f"UPDATE sessions SET status = 'bogus' WHERE id = '{view['id']}'")
        code, err = start_fails(v, url)
        assert code == 1 and f"session {view['id']} in the database has an unknown status `bogus`" in err, (code, err)
    finally:
        first.cleanup()
        second.cleanup()
        shutil.rmtree(folder, ignore_errors=True)


def case_pg_bad_urls_are_clear_errors_without_the_password(v):
    need_cluster()
    # not a PostgreSQL URL: a usage error naming the variable, before anything starts
    code, err = start_fails(v, "mysql://u:hunter2@localhost/x")
    assert code == 2 and "CHIDORI_DB_URL" in err and "postgresql://" in err and "hunter2" not in err, (code, err)
    # a server that is not there: the URL, redacted, and what to check
    sock = tempfile.mkdtemp(prefix="chidori-pg-none-")
    try:
        for url in (f"postgresql://chidori:hunter2@/x?host={sock}",
                    f"postgresql://chidori@/x?host={sock}&password=hunter2",
                    "postgresql://chidori:hunter2@127.0.0.1:1/x?connect_timeout=5"):
            code, err = start_fails(v, url)
            assert code == 1 and "cannot connect to the PostgreSQL database" in err, (url, code, err)
            assert "hunter2" not in err and "***" in err and "CHIDORI_DB_URL" in err, (url, err)
        # --db wins over the environment, and says the same
        code, err = start_fails(v, "postgresql://nobody:hunter2@/x?host=/nonexistent", "--db",
                                f"postgresql://chidori:hunter2@/x?host={sock}")
        assert code == 1 and sock in err and "/nonexistent" not in err and "hunter2" not in err, err
        # a URL libpq cannot parse: said without libpq's text, which quotes the password
        code, err = start_fails(v, "postgresql://[::1/x")
        assert code == 1 and "cannot be parsed" in err, (code, err)
        for url in ("postgresql://alice:hun%zzter2@localhost/x", "postgresql://a:hunter2@[::1:1/x"):
            code, err = start_fails(v, url)
            assert code == 1 and "cannot be parsed" in err and "hunter2" not in err and "hun%zzter2" not in err, \
                (url, code, err)
        # a password key written percent-encoded is still a password (libpq decodes the key)
        code, err = start_fails(v, f"postgresql://chidori@/x?host={sock}&%70assword=hunter2")
        assert code == 1 and "hunter2" not in err and "***" in err, err
        # a key=value connection string is refused, not made into a SQLite file named after it
        code, err = start_fails(v, f"postgresql://chidori@/x?host={sock}", "--db", "host=localhost password=hunter2")
        assert code != 0 and "key=value connection string" in err and "hunter2" not in err, (code, err)
        # a database that does not exist in a running cluster
        good = pgserver.cluster().url("no_such_database")
        code, err = start_fails(v, good)
        assert code == 1 and "no_such_database" in err and "does not exist" in err, (code, err)
    finally:
        shutil.rmtree(sock, ignore_errors=True)


def case_pg_memory_cap_holds(v):
    """chidori.memory's 64 MiB cap holds on PostgreSQL: with the table nearly full, a set is
    refused (the session fails saying so) and nothing is written; after a delete it fits again."""
    need_cluster()
    url, name = pgserver.database()
    s = server_on(v, url)
    try:
        s.start()
        create(s, {"input": {"mode": "remember", "key": "a", "n": 1}})
        pgserver.psql(name, "INSERT INTO memory (namespace, key, value) VALUES ('filler', 'big',"
                            " '\"' || repeat('x', 64 * 1024 * 1024 - 16) || '\"')")
        view = create(s, {"input": {"mode": "remember", "key": "b", "n": 2}})
        assert view["status"] == "failed" and "memory is full" in view["error"], view
        assert pgserver.psql(name, "SELECT count(*) FROM memory WHERE key = 'b'").strip() == "0"
        pgserver.psql(name, "DELETE FROM memory WHERE namespace = 'filler'")
        view = create(s, {"input": {"mode": "remember", "key": "b", "n": 2}})
        assert view["status"] == "completed" and view["output"]["keys"] == ["a", "b"], view
        s.stop()
    finally:
        s.cleanup()


def case_pg_memory_rows_are_in_the_database(v):
    """The PostgreSQL side of case_serve_memory_in_the_database (which reads the SQLite file):
    concurrent sessions' memory writes all land, listed in insertion order."""
    need_cluster()
    url, name = pgserver.database()
    s = server_on(v, url, env={"CHIDORI_MAX_CONCURRENT_SESSIONS": "16"})
    try:
        s.start()
        import threading
        views = [None] * 8

        def one(i):
            views[i] = s.request("POST", "/sessions", {"input": {"mode": "remember", "key": f"k{i}", "n": i}})[2]
        threads = [threading.Thread(target=one, args=(i,)) for i in range(len(views))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60 * v.slow)
        assert all(x and x["status"] == "completed" for x in views), views
        rows = pgserver.psql(name, "SELECT key FROM memory WHERE namespace = 'serve-test' ORDER BY rowid").split()
        assert sorted(rows) == sorted(f"k{i}" for i in range(8)), rows
        last = create(s, {"input": {"mode": "remember", "key": "z", "n": 0}})
        assert last["output"]["keys"] == rows + ["z"], (last, rows)
        s.stop()
    finally:
        s.cleanup()


def case_pg_db_layer_unit_tests_on_postgres(v):
    """The db.h unit tests (tests/unit/test_db.c) against a PostgreSQL database: the same
    statements as on SQLite, typed reads, a unique violation told apart, transactions, and
    LISTEN/NOTIFY between two connections (delivered at commit)."""
    need_cluster()
    url, _ = pgserver.database()
    binary = os.path.join(v.dir, "unit_tests")
    if not os.path.exists(binary):
        raise Skip(f"{binary} is not built (make unit)")
    p = subprocess.run([binary, "db_"], capture_output=True, text=True, timeout=120 * v.slow,
                       env=v.env({"PG_TEST_URL": url}))
    assert p.returncode == 0 and "ok db_both_postgres" in p.stdout, p.stdout + p.stderr
    assert "PG_TEST_URL unset" not in p.stdout, p.stdout


def case_pg_unusual_strings_round_trip(v):
    """A NUL and a lone surrogate in a session's input and output: PostgreSQL's text columns take
    no NUL byte and only valid UTF-8, so they must arrive as JSON escapes, and come back the same."""
    need_cluster()
    url, name = pgserver.database()
    s = server_on(v, url)
    try:
        s.start()
        status, _, view = s.request("POST", "/sessions", '{"input": {"name": "a\\ud800b\\u0000c\\u00e9"}}')
        assert status == 201 and view["status"] == "completed", (status, view)
        assert view["output"] == {"greeting": "Hello, a\ud800b\x00c\u00e9!"}, view
        again = s.request("GET", f"/sessions/{view['id']}")[2]
        assert again["input"] == {"name": "a\ud800b\x00c\u00e9"} and again["output"] == view["output"], again
        stored = pgserver.psql(name, f"SELECT input FROM sessions WHERE id = '{view['id']}'").strip()
        assert "\\ud800" in stored and "\\u0000" in stored, stored
        s.stop()
    finally:
        s.cleanup()
