"""tests/cases_serve_bounds.py — `chidori serve` bounds a session's stored log (issue 23, finding
3): CHIDORI_LOG_MAX_RECORDS and CHIDORI_LOG_MAX_BYTES cap a session's log across all its runs,
the session that reaches a cap ends failed with an error that names the limit and the variable,
and stays readable, streamable and replayable; the server keeps no copy of a session's records in
memory (its growth over a long session is measured); streams read the log from the database a
page at a time, in the order records were appended; a version-1 database is upgraded.

Serves tests/serve_bounds/agent.js (marks, optionally around an input() pause or in a nested agent).
"""
import json
import os
import re
import shutil
import sqlite3
import tempfile

import serve_db
from cases_serve import Server, create
from run import ROOT

AGENT = os.path.join(ROOT, "tests", "serve_bounds", "agent.js")


def bounded(v, env=None, folder=None, *args):
    return Server(v, *args, env=env, folder=folder, agent=AGENT)


def checkpoint(s, sid):
    status, _, cp = s.request("GET", f"/sessions/{sid}/checkpoint")
    assert status == 200, (status, cp)
    return cp["call_log"]


def case_serve_log_caps_settings_checked_at_start(v):
    for name in ("CHIDORI_LOG_MAX_RECORDS", "CHIDORI_LOG_MAX_BYTES"):
        for bad in ("0", "-5", "+7", " 7", "lots", "1e5", "99999999999999999999", "20000000000"):
            s = bounded(v, {name: bad})
            try:
                s.start(expect_listen=False)
                assert s.proc.wait(timeout=20 * v.slow) == 2, (name, bad, s.stderr())
                s.reader.join(timeout=5)
                assert f"{name} must be a whole number from " in s.stderr(), (name, bad, s.stderr())
            finally:
                s.cleanup()


def case_serve_log_capped_by_records_across_runs(v):
    """The cap counts the session's whole log: 30 records before a pause, the answer, then the
    run after the resume is refused its 51st record; the session ends failed naming the limit,
    and stays viewable, streamable and replayable (a replay stops at the same place)."""
    s = bounded(v, {"CHIDORI_LOG_MAX_RECORDS": "50"})
    try:
        s.start()
        view = create(s, {"input": {"n": 30, "ask": True, "more": 100}})
        assert view["status"] == "paused" and view["call_count"] == 30, view
        sid = view["id"]
        status, _, got = s.request("POST", f"/sessions/{sid}/resume", {"response": "go"})
        assert status == 200 and got["status"] == "failed", (status, got)
        err = got["error"]
        assert "CHIDORI_LOG_MAX_RECORDS" in err and re.search(r"\b50\b", err), err
        assert got["call_count"] == 50, got
        log = checkpoint(s, sid)
        assert len(log) == 50 and sorted(r["seq"] for r in log) == list(range(1, 51)), [r["seq"] for r in log]
        events = s.events("GET", f"/sessions/{sid}/stream")
        assert [e for e, _ in events] == ["call"] * 50 + ["done"], [e for e, _ in events]
        assert events[-1][1]["status"] == "failed", events[-1]
        status, _, again = s.request("POST", f"/sessions/{sid}/replay")
        assert status == 201 and again["status"] == "failed" and "CHIDORI_LOG_MAX_RECORDS" in again["error"], again
        assert again["call_count"] == 50, again
        s.stop()
    finally:
        s.cleanup()


def case_serve_log_capped_by_bytes(v):
    s = bounded(v, {"CHIDORI_LOG_MAX_BYTES": "20000"})
    try:
        s.start()
        view = create(s, {"input": {"n": 1000, "pad": 500}})
        assert view["status"] == "failed", view
        err = view["error"]
        assert "CHIDORI_LOG_MAX_BYTES" in err and "20000" in err, err
        log = checkpoint(s, view["id"])
        assert 0 < len(log) == view["call_count"] < 1000, (len(log), view)
        stored = serve_db.stored_log_bytes(v, os.path.join(s.folder, "state"), view["id"])
        # the record that reaches the cap is kept, the next one is refused
        last = max(len(json.dumps(r, separators=(",", ":")).encode()) + 1 for r in log)
        assert 20000 <= stored < 20000 + last, (stored, last)
        s.stop()
    finally:
        s.cleanup()


def rss_kib(pid, field):
    with open(f"/proc/{pid}/status") as f:
        return int(re.search(field + r":\s+(\d+)", f.read()).group(1))


# What a long session may add to the server's peak memory, per record. Before this change the
# server kept every record as a parsed JSON object for the whole run (and for each stream): about
# 2.3 KiB per mark. The server's own copy is gone; what is left is the host's call log (one
# call_record per record, about 0.8 KiB per mark), which the host's bounded call log removes.
MAX_KIB_PER_RECORD = 1.5


def case_serve_memory_does_not_grow_with_a_sessions_log(v):
    """The server's peak memory over one long session of marks, and over a stream of it afterwards,
    does not grow with its record count the way a copy of the records would. The database is on a
    memory file system when there is one, so the figure is the server's and fsync does not pace it."""
    n = 20000 if not v.sanitized else 5000
    shm = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
    db_dir = tempfile.mkdtemp(prefix="chidori-bounds-db-", dir=shm)
    env = {"CHIDORI_DB_PATH": os.path.join(db_dir, "sessions.sqlite3")}
    # a sanitizer build holds freed memory in quarantine: measure what is live, not what was freed
    env["ASAN_OPTIONS"] = v.env()["ASAN_OPTIONS"] + ":quarantine_size_mb=0"
    s = bounded(v, env)
    try:
        s.start()
        create(s, {"input": {"n": 10}})  # warm: the worker, the database, the allocator
        before = rss_kib(s.proc.pid, "VmHWM")
        view = create(s, {"input": {"n": n}})
        assert view["status"] == "completed" and view["call_count"] == n, view
        after_run = rss_kib(s.proc.pid, "VmHWM")
        events = s.events("GET", f"/sessions/{view['id']}/stream", timeout=120)
        assert len(events) == n + 1 and events[-1][0] == "done", len(events)
        assert [d["seq"] for _, d in events[:-1]] == list(range(1, n + 1))
        after_stream = rss_kib(s.proc.pid, "VmHWM")
        run_growth, stream_growth = after_run - before, after_stream - after_run
        print(f"serve memory: {n} marks: peak +{run_growth} KiB during the run, +{stream_growth} KiB for a stream")
        if not v.sanitized:
            assert run_growth < n * MAX_KIB_PER_RECORD, f"peak grew {run_growth} KiB over {n} records"
        else:  # a sanitizer's redzones and shadow swell every allocation: the figure is the release build's
            print(f"serve memory: the per-record bound is checked on the release build only ({v.name})")
        assert stream_growth < 4096, f"a stream of {n} records grew the peak by {stream_growth} KiB"
        s.stop()
    finally:
        s.cleanup()
        shutil.rmtree(db_dir, ignore_errors=True)


def case_serve_stream_pages_in_append_order(v):
    """A nested agent's records are appended before its call_agent record (which has the lower
    seq): the stream sends them in the order they were appended, live and afterwards, across
    several pages of the database."""
    s = bounded(v)
    try:
        s.start()
        events = s.events("POST", "/sessions/stream", {"input": {"n": 150, "nested": True}})
        calls = [d for e, d in events if e == "call"]
        assert [d["function"] for d in calls] == ["mark"] * 150 + ["call_agent", "mark"], \
            [d["function"] for d in calls][-5:]
        sid = events[-1][1]["id"]
        assert events[-1][1]["status"] == "completed", events[-1]
        again = [d for e, d in s.events("GET", f"/sessions/{sid}/stream") if e == "call"]
        assert again == calls, "a stream afterwards differs from the live one"
        assert calls[150]["seq"] == 1 and all(d.get("parent_seq") == 1 for d in calls[:150]), calls[150]
        s.stop()
    finally:
        s.cleanup()


def case_serve_upgrades_a_version_1_database(v):
    """A database of schema version 1 (records without an append position) is upgraded when the
    server opens it: its sessions stream in seq order, and a resumed one appends after them."""
    folder = tempfile.mkdtemp(prefix="chidori-bounds-v1-")
    first, second = bounded(v, folder=folder), bounded(v, folder=folder)
    try:
        first.start()
        view = create(first, {"input": {"n": 5, "ask": True, "more": 3}})
        assert view["status"] == "paused", view
        first.stop()
        path = os.path.join(folder, "state", "sessions.sqlite3")
        db = sqlite3.connect(path)
        db.executescript("DROP INDEX records_by_pos; ALTER TABLE records DROP COLUMN pos; PRAGMA user_version = 1;")
        db.close()
        second.start()
        sid = view["id"]
        status, _, got = second.request("POST", f"/sessions/{sid}/resume", {"response": "ok"})
        assert status == 200 and got["status"] == "completed" and got["call_count"] == 9, got
        calls = [d for e, d in second.events("GET", f"/sessions/{sid}/stream") if e == "call"]
        assert [d["seq"] for d in calls] == list(range(1, 10)), [d["seq"] for d in calls]
        second.stop()
        db = sqlite3.connect(path)
        assert db.execute("PRAGMA user_version").fetchone()[0] == 2
        db.close()
    finally:
        first.cleanup()
        second.cleanup()
