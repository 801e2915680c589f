"""tests/cases_cluster.py — several `chidori serve` nodes on one database (docs/scaling.md): any
node serves any session, one owner per running session through leases fenced by an epoch,
failover of a killed node's sessions, queued sessions shared out to nodes with room. Every case
runs on one SQLite file (case_cluster_*) and again on one PostgreSQL database of tests/pgserver.py's
throwaway cluster (case_pg_cluster_*), plus PostgreSQL's own LISTEN/NOTIFY case.

Every node here is a real server process on its own loopback port, all on one database file
(CHIDORI_DB_PATH), each with its own CHIDORI_NODE_ID and state folder. Effects are counted by a
local HTTP server (tests/http/server.py, allowed with CHIDORI_HTTP_ALLOW_HOSTS): each request's
path is counted, so "performed exactly once" is read from the counts. Assertions are on content
(statuses, records, counts, which node); every wait is bounded generously (Variant.slow).
"""
import contextlib
import json
import os
import shutil
import signal
import sqlite3
import tempfile
import threading
import time
import urllib.request

import pgserver
from cases import Skip
from cases_http import server as counting_server
from cases_serve import Server

AGENT = """import { run } from "chidori:agent";
run(async (input, chidori) => {
  switch (input.mode) {
    case "steps": {
      const answer = await chidori.input("Ship it?");
      await chidori.workspace.write("shipped.txt", answer);
      return { answer };
    }
    case "count": {
      // /c/<i> is counted once per request; /slow gives the test time to act between two steps
      const seen = [];
      for (let i = 0; i < input.n; i++) {
        const r = await fetch(input.base + "/c/" + i);
        seen.push(r.status);
        await fetch(input.base + "/slow?ms=" + input.ms);
      }
      return { seen };
    }
    case "signal": {
      const got = await chidori.signal("go");
      return { payload: got.payload };
    }
    case "prompt": {
      // held on a signal so the streams can attach first; then a prompt whose reply streams
      await chidori.signal("go");
      if (input.gate) await fetch(input.gate); // held until the test opens it
      return { reply: await chidori.prompt("Tell the news.", { type: "summary" }) };
    }
    case "one": {
      const r = await fetch(input.base + "/q/" + input.k);
      return { k: input.k, status: r.status };
    }
    default:
      return { hello: true };
  }
});
"""


@contextlib.contextmanager
def cluster(v, names, lease_ms=3000, env=None, pg=False):
    """Nodes named names on one database; yields {name: Server} and "_db" (what records() and
    seq_dupes() read). pg: the database is a new one of tests/pgserver.py's throwaway PostgreSQL
    cluster (CHIDORI_DB_URL), else one SQLite file (CHIDORI_DB_PATH). Each node is stopped with
    SIGTERM at the end (exit 0, no sanitizer report) unless the test killed it."""
    if pg:
        need_cluster()
        url, dbname = pgserver.database()
        where, db = {"CHIDORI_DB_URL": url}, PgDb(dbname)
    folder = tempfile.mkdtemp(prefix="chidori-cluster-")
    agent = os.path.join(folder, "agent.js")
    with open(agent, "w") as f:
        f.write(AGENT)
    if not pg:
        db = os.path.join(folder, "cluster.sqlite3")
        where = {"CHIDORI_DB_PATH": db}
    nodes = {}
    try:
        for name in names:
            e = dict(where)
            e.update({"CHIDORI_NODE_ID": name, "CHIDORI_LEASE_MS": str(int(lease_ms * v.slow)),
                 "CHIDORI_STATE_DIR": os.path.join(folder, "state-" + name),
                 "CHIDORI_HTTP_ALLOW_HOSTS": "127.0.0.1"})
            e.update(env or {})
            nodes[name] = Server(v, "--trusted", env=e, folder=folder, agent=agent).start()
        nodes["_db"] = db
        yield nodes
        for name in names:
            s = nodes[name]
            if s.proc.poll() is None:
                s.stop()
    finally:
        for name in names:
            if name in nodes:
                s = nodes[name]
                if s.proc and s.proc.poll() is None:
                    s.proc.kill()
                    s.proc.wait()
        shutil.rmtree(folder, ignore_errors=True)


def post(s, path, body, want=200):
    status, _, view = s.request("POST", path, body)
    assert status == want, (path, status, view, s.stderr())
    return view


class PgDb:
    """A cluster's PostgreSQL database, read with pgserver.rows (psql as the superuser)."""

    def __init__(self, name):
        self.name = name


def need_cluster():
    why = pgserver.unavailable()
    if why:
        raise Skip(why)
    try:
        pgserver.cluster()
    except RuntimeError as e:
        raise Skip(str(e)) from None


def _sql_text(sid):
    assert all(ch.isalnum() or ch in "-_" for ch in sid), sid  # quoted into SQL below
    return "'" + sid + "'"


def records(db, sid):
    if isinstance(db, PgDb):
        return [json.loads(r[0]) for r in pgserver.rows(
            db.name, f"SELECT record FROM records WHERE session_id = {_sql_text(sid)} ORDER BY pos")]
    con = sqlite3.connect(db, timeout=30)
    try:
        return [json.loads(r[0]) for r in con.execute("SELECT record FROM records WHERE session_id = ? ORDER BY pos",
                                                      (sid,))]
    finally:
        con.close()


def seq_dupes(db, sid):
    if isinstance(db, PgDb):
        return pgserver.rows(db.name, f"SELECT seq, COUNT(*) FROM records WHERE session_id = {_sql_text(sid)}"
                                      " GROUP BY seq HAVING COUNT(*) > 1")
    con = sqlite3.connect(db, timeout=30)
    try:
        return con.execute("SELECT seq, COUNT(*) FROM records WHERE session_id = ? GROUP BY seq HAVING COUNT(*) > 1",
                           (sid,)).fetchall()
    finally:
        con.close()


def stream(v, s, sid, seconds=90):
    """The events of GET /sessions/{sid}/stream on node s, read on a thread: a stream that never
    ends (keep-alives would hold the socket open) fails the test after seconds, not the suite."""
    out = {}

    def read():
        try:
            out["events"] = s.events("GET", f"/sessions/{sid}/stream", timeout=seconds)
        except Exception as e:  # reported below
            out["error"] = e
    t = threading.Thread(target=read, daemon=True)
    t.start()
    return t, out


def stream_done(v, t, out, seconds=90):
    t.join(seconds * v.slow)
    assert not t.is_alive(), "the stream did not end"
    assert "events" in out, out.get("error")
    return out["events"]


def wait_until(v, what, pred, seconds=60, detail=lambda: ""):
    deadline = time.monotonic() + seconds * v.slow
    while time.monotonic() < deadline:
        got = pred()
        if got:
            return got
        time.sleep(0.05)
    raise AssertionError(f"never {what}\n{detail()}")


def case_cluster_started_on_a_resumed_on_b_approved_on_c(v, pg=False):
    """One session, three nodes: created on A (paused on its input), resumed on B (it waits for an
    approval, run by B), approved on C (completed by C); every node shows the same state, the
    node that ran it last, and the same call log."""
    with cluster(v, ["node-a", "node-b", "node-c"], pg=pg) as n:
        a, b, c = n["node-a"], n["node-b"], n["node-c"]
        view = post(a, "/sessions", {"input": {"mode": "steps"}, "policy_profile": "supervised"}, 201)
        sid = view["id"]
        assert view["status"] == "paused" and view["node"] == "node-a", view
        got = post(b, f"/sessions/{sid}/resume", {"response": "yes"})
        assert got["status"] == "awaitingapproval" and got["node"] == "node-b", got
        assert got["pending_approval"]["target"] == "workspace:write", got
        # A and C read it again from the store: not the stale `paused` A kept
        for s in (a, c):
            _, _, seen = s.request("GET", f"/sessions/{sid}")
            assert seen["status"] == "awaitingapproval" and seen["node"] == "node-b", (s.env, seen)
        status, _, again = a.request("POST", f"/sessions/{sid}/resume", {"response": "no"})
        assert status == 409, (status, again)
        got = post(c, f"/sessions/{sid}/approve", {"decision": "allow"})
        assert got["status"] == "completed" and got["output"] == {"answer": "yes"} and got["node"] == "node-c", got
        with open(os.path.join(a.folder, "shipped.txt")) as f:
            assert f.read() == "yes"
        logs = []
        for s in (a, b, c):
            _, _, seen = s.request("GET", f"/sessions/{sid}")
            assert seen["status"] == "completed" and seen["node"] == "node-c" and seen["call_count"] == got["call_count"], seen
            _, _, listed = s.request("GET", "/sessions")
            mine = [x for x in listed["sessions"] if x["id"] == sid]
            assert len(mine) == 1 and mine[0]["status"] == "completed" and mine[0]["node"] == "node-c", mine
            _, _, cp = s.request("GET", f"/sessions/{sid}/checkpoint")
            logs.append(cp["call_log"])
        assert logs[0] == logs[1] == logs[2] and [r["seq"] for r in logs[0]] == list(range(1, len(logs[0]) + 1)), logs
        assert not seq_dupes(n["_db"], sid)


def case_cluster_signal_on_b_of_a_session_streamed_and_held_on_a(v, pg=False):
    """A session paused on a signal, streamed on A (so A keeps it in memory): the signal sent to B
    runs it on B; A's stream follows the stored records to `done`, and A's view is the stored one,
    not the paused copy it held."""
    with cluster(v, ["node-a", "node-b"], pg=pg) as n:
        a, b = n["node-a"], n["node-b"]
        view = post(a, "/sessions", {"input": {"mode": "signal"}}, 201)
        sid = view["id"]
        assert view["status"] == "paused" and view["pending_signal_name"] == "go", view
        t, out = stream(v, a, sid)
        time.sleep(0.5 * v.slow)  # the stream is open on A, past the `paused` it sends first
        got = post(b, f"/sessions/{sid}/signal", {"name": "go", "payload": 7})
        done = b.wait_for(sid, lambda x: x["status"] == "completed", "completed")
        assert done["output"] == {"payload": 7} and done["node"] == "node-b", done
        _, _, seen = a.request("GET", f"/sessions/{sid}")
        assert seen["status"] == "completed" and seen["node"] == "node-b" and seen["call_count"] == done["call_count"], seen
        events = stream_done(v, t, out)
        assert events and events[-1][0] == "done" and events[-1][1]["status"] == "completed", (got, events)
        assert [d for e, d in events if e == "call"] == records(n["_db"], sid), events


def case_cluster_stream_on_b_of_a_session_running_on_a_and_cancel_from_c(v, pg=False):
    """A stream on B follows a session that runs on A from the stored records, every record once and
    in order, and ends with `done`; a stream opened later on C (re-attaching elsewhere) gets the same
    events. A cancel sent to C stops a session running on A."""
    with counting_server() as (port, counts), cluster(v, ["node-a", "node-b", "node-c"], pg=pg) as n:
        a, b, c = n["node-a"], n["node-b"], n["node-c"]
        base = f"http://127.0.0.1:{port}"
        view = post(a, "/sessions", {"input": {"mode": "count", "n": 4, "ms": 150, "base": base}, "wait": False}, 201)
        sid = view["id"]
        events = stream_done(v, *stream(v, b, sid))
        calls = [d for e, d in events if e == "call"]
        assert events[-1][0] == "done", events
        done = events[-1][1]
        assert done["status"] == "completed" and done["node"] == "node-a", done
        assert [r["seq"] for r in calls] == list(range(1, len(calls) + 1)) and len(calls) == 8, calls
        assert calls == records(n["_db"], sid), "the stream on B differs from the stored log"
        later = stream_done(v, *stream(v, c, sid))
        assert [d for e, d in later if e == "call"] == calls and later[-1][0] == "done", later

        view = post(a, "/sessions", {"input": {"mode": "count", "n": 200, "ms": 100, "base": base}, "wait": False}, 201)
        sid = view["id"]
        wait_until(v, "running a few steps", lambda: counts()["paths"].get("/c/2"))
        got = post(c, f"/sessions/{sid}/cancel", {})
        assert got["status"] == "cancelled", got
        final = a.wait_for(sid, lambda x: x["status"] == "cancelled", "cancelled on A")
        time.sleep(1 * v.slow)  # A stopped: its step count no longer grows
        steps = counts()["paths"].get("/slow", 0)
        time.sleep(1 * v.slow)
        assert counts()["paths"].get("/slow", 0) == steps, "the run on A did not stop"
        _, _, seen = b.request("GET", f"/sessions/{sid}")
        assert seen["status"] == "cancelled" and final["error"] == "cancelled", (seen, final)
        assert "/c/150" not in counts()["paths"]


def case_cluster_kill_9_of_a_node_mid_run_fails_over_exactly_once(v, pg=False):
    """kill -9 of the node running a session: another node takes it over and finishes it by
    replaying its log; every effect recorded before the kill happened exactly once."""
    with counting_server() as (port, counts), cluster(v, ["node-a", "node-b", "node-c"], pg=pg) as n:
        a, b = n["node-a"], n["node-b"]
        base = f"http://127.0.0.1:{port}"
        steps = 6
        view = post(a, "/sessions", {"input": {"mode": "count", "n": steps, "ms": 400, "base": base},
                                     "wait": False}, 201)
        sid = view["id"]
        # /slow #3 has arrived: /c/0../c/2 are recorded (a record is stored before the agent goes on)
        wait_until(v, "at the third step", lambda: counts()["paths"].get("/slow", 0) >= 3)
        a.kill()
        done = b.wait_for(sid, lambda x: x["status"] in ("completed", "failed", "cancelled"), "settled", seconds=90)
        assert done["status"] == "completed" and done["node"] in ("node-b", "node-c"), done
        assert done["output"] == {"seen": [404] * steps}, done
        paths = counts()["paths"]
        for i in range(steps):
            assert paths.get(f"/c/{i}") == 1, (i, paths)
        log = records(n["_db"], sid)
        assert [r["seq"] for r in log] == list(range(1, 2 * steps + 1)), [r["seq"] for r in log]
        assert not seq_dupes(n["_db"], sid)
        assert "taken over by node" in (n["node-b"].stderr() + n["node-c"].stderr())


def stop_outside_a_write(node, db):
    """SIGSTOP node, but not inside one of its SQLite write transactions: a process stopped there
    keeps SQLite's write lock, and no other node can write until it runs again (a limit of the
    SQLite store, docs/scaling.md "Current gaps"; PostgreSQL has no such lock). When the lock is
    held, the node runs on for a moment and is stopped again."""
    for _ in range(200):
        os.kill(node.proc.pid, signal.SIGSTOP)
        if isinstance(db, PgDb):
            return
        con = sqlite3.connect(db, timeout=0, isolation_level=None)
        try:
            con.execute("BEGIN IMMEDIATE")
            con.execute("ROLLBACK")
            return
        except sqlite3.OperationalError:
            pass
        finally:
            con.close()
        os.kill(node.proc.pid, signal.SIGCONT)
        time.sleep(0.02)
    raise AssertionError("the node held SQLite's write lock every time it was stopped")


def case_cluster_stale_owner_after_sigstop_is_fenced(v, pg=False):
    """A node stopped (SIGSTOP) past its lease: another node takes the session over and completes it.
    Continued (SIGCONT), the stale node's writes are refused: the session stays completed by the
    other node, no seq is written twice, and the stale node performs no further step. The request
    that created it on the stale node, waiting for it to settle, answers with what the other node
    stored."""
    lease = 2000
    with counting_server() as (port, counts), cluster(v, ["node-a", "node-b"], lease_ms=lease, pg=pg) as n:
        a, b = n["node-a"], n["node-b"]
        base = f"http://127.0.0.1:{port}"
        steps = 5
        # created with wait (the default): the request waits on A for a run that B finishes
        created = {}

        def create():
            created["reply"] = a.request("POST", "/sessions", {"input": {"mode": "count", "n": steps, "ms": 600,
                                                                         "base": base}}, timeout=120)
        t = threading.Thread(target=create, daemon=True)
        t.start()

        def listed():
            got = b.request("GET", "/sessions")[2]["sessions"]
            return got[0]["id"] if got else None
        sid = wait_until(v, "the session stored", listed)
        wait_until(v, "at the second step", lambda: counts()["paths"].get("/slow", 0) >= 2)
        stop_outside_a_write(a, n["_db"])
        try:
            done = b.wait_for(sid, lambda x: x["status"] in ("completed", "failed", "cancelled"), "settled",
                              seconds=90)
        finally:
            os.kill(a.proc.pid, signal.SIGCONT)
        assert done["status"] == "completed" and done["node"] == "node-b", done
        log_before = records(n["_db"], sid)
        wait_until(v, "the stale node refusing its writes",
                   lambda: "no longer holds its lease" in a.stderr() or "lost its lease" in a.stderr(),
                   detail=a.stderr)
        time.sleep(1.5 * v.slow)  # time for a stale run to do harm, if it could
        _, _, seen = a.request("GET", f"/sessions/{sid}")
        assert seen["status"] == "completed" and seen["node"] == "node-b", seen
        _, _, seen = b.request("GET", f"/sessions/{sid}")
        assert seen["status"] == "completed" and seen["output"] == {"seen": [404] * steps}, seen
        assert records(n["_db"], sid) == log_before, "a record was written after the session completed"
        t.join(60 * v.slow)
        assert not t.is_alive(), "the waiting create on A never answered"
        status, _, reply = created["reply"]
        assert status == 201 and reply["status"] == "completed" and reply["node"] == "node-b", (status, reply)
        assert not seq_dupes(n["_db"], sid)
        paths = counts()["paths"]
        for i in range(steps):
            assert paths.get(f"/c/{i}") == 1, (i, paths)


def case_cluster_200_queued_sessions_shared_by_three_nodes(v, pg=False):
    """200 sessions posted with wait:false to nodes at their cap are queued; the three nodes claim
    them, oldest first, and each runs exactly once."""
    total = 200
    env = {"CHIDORI_MAX_CONCURRENT_SESSIONS": "3"}
    with counting_server() as (port, counts), cluster(v, ["node-a", "node-b", "node-c"], env=env, pg=pg) as n:
        nodes = [n["node-a"], n["node-b"], n["node-c"]]
        base = f"http://127.0.0.1:{port}"
        ids, queued = [], 0
        for k in range(total):
            s = nodes[0] if k % 4 else nodes[k % 3]  # most go to A, so A queues and the others take them
            view = post(s, "/sessions", {"input": {"mode": "one", "k": k, "base": base}, "wait": False}, 201)
            assert view["status"] in ("running", "queued"), view
            queued += view["status"] == "queued"
            ids.append(view["id"])
        assert queued > 0, "no session was queued"

        def all_done():
            _, _, listed = nodes[1].request("GET", "/sessions")
            mine = [x for x in listed["sessions"] if x["id"] in set(ids)]
            return mine if all(x["status"] in ("completed", "failed", "cancelled") for x in mine) else None
        listed = wait_until(v, "every session settled", all_done, seconds=300)
        assert len(listed) == total and all(x["status"] == "completed" for x in listed), \
            [x for x in listed if x["status"] != "completed"][:3]
        ran_on = {x["node"] for x in listed}
        assert ran_on == {"node-a", "node-b", "node-c"}, ran_on
        paths = counts()["paths"]
        assert all(paths.get(f"/q/{k}") == 1 for k in range(total)), \
            {k: paths.get(f"/q/{k}") for k in range(total) if paths.get(f"/q/{k}") != 1}
        for sid in ids[:20]:
            assert not seq_dupes(n["_db"], sid)


# The same cases with the nodes on one PostgreSQL database (tests/pgserver.py), the backend for
# many machines: each twin runs its SQLite case's body with pg=True.
def _on_postgres(case):
    def twin(v):
        return case(v, pg=True)
    twin.__name__ = "case_pg_" + case.__name__[len("case_"):]
    twin.__doc__ = "On PostgreSQL: " + (case.__doc__ or "")
    return twin


case_pg_cluster_started_on_a_resumed_on_b_approved_on_c = _on_postgres(case_cluster_started_on_a_resumed_on_b_approved_on_c)
case_pg_cluster_signal_on_b_of_a_session_streamed_and_held_on_a = _on_postgres(case_cluster_signal_on_b_of_a_session_streamed_and_held_on_a)
case_pg_cluster_stream_on_b_of_a_session_running_on_a_and_cancel_from_c = _on_postgres(case_cluster_stream_on_b_of_a_session_running_on_a_and_cancel_from_c)
case_pg_cluster_kill_9_of_a_node_mid_run_fails_over_exactly_once = _on_postgres(case_cluster_kill_9_of_a_node_mid_run_fails_over_exactly_once)
case_pg_cluster_stale_owner_after_sigstop_is_fenced = _on_postgres(case_cluster_stale_owner_after_sigstop_is_fenced)
case_pg_cluster_200_queued_sessions_shared_by_three_nodes = _on_postgres(case_cluster_200_queued_sessions_shared_by_three_nodes)


def case_pg_cluster_stream_on_b_follows_a_by_notify_and_survives_a_lost_listener(v):
    """LISTEN/NOTIFY on PostgreSQL: a stream on B of a session running on A follows it as A stores
    each record (A NOTIFYs, B's listener wakes its ticker), not at B's next poll: with the poll set
    far apart (CHIDORI_CLUSTER_POLL_MS, and a long lease so the lease renewals do not read either),
    the stream still ends long before any poll could have happened. Then the listening connection
    of B is killed by the database mid-run: notifications are lost until it reconnects, B polls
    meanwhile, and a stream of the next session still gets every record once, in order."""
    lease = 120000  # the ticker then wakes on its own every lease/3 (40 s, x slow) at the soonest
    env = {"CHIDORI_CLUSTER_POLL_MS": "600000"}
    with counting_server() as (port, counts), cluster(v, ["node-a", "node-b"], lease_ms=lease, env=env,
                                                      pg=True) as n:
        a, b = n["node-a"], n["node-b"]
        dbname = n["_db"].name
        base = f"http://127.0.0.1:{port}"
        listeners = f"SELECT pid FROM pg_stat_activity WHERE datname = '{dbname}' AND query LIKE 'LISTEN %'"
        wait_until(v, "both nodes listening", lambda: len(pgserver.rows(dbname, listeners)) == 2)
        time.sleep(1 * v.slow)  # both tickers past their first round
        view = post(a, "/sessions", {"input": {"mode": "count", "n": 4, "ms": 150, "base": base}, "wait": False}, 201)
        sid = view["id"]
        began = time.monotonic()
        events = stream_done(v, *stream(v, b, sid, seconds=300), seconds=300)
        took = time.monotonic() - began
        calls = [d for e, d in events if e == "call"]
        assert events[-1][0] == "done" and events[-1][1]["node"] == "node-a", events
        assert calls == records(n["_db"], sid) and len(calls) == 8, calls
        # without the notifications B would see the session's end at its next tick, >= 40 s away
        assert took < 20 * v.slow, f"the stream on B took {took:.1f}s: it followed the poll, not the NOTIFYs"

        # B's listener killed by the database while a run goes on: B polls until it listens again
        view = post(a, "/sessions", {"input": {"mode": "count", "n": 6, "ms": 300, "base": base}, "wait": False}, 201)
        sid = view["id"]
        t, out = stream(v, b, sid, seconds=300)
        wait_until(v, "the run under way", lambda: counts()["paths"].get("/c/1"))
        # every listener of this database (A's and B's): the NOTIFYs sent meanwhile reach nobody
        killed = pgserver.rows(dbname, f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{dbname}'"
                                       " AND query LIKE 'LISTEN %'")
        assert killed, "no listening connection to kill"
        events = stream_done(v, t, out, seconds=300)
        calls = [d for e, d in events if e == "call"]
        assert events[-1][0] == "done" and events[-1][1]["status"] == "completed", events
        assert [r["seq"] for r in calls] == list(range(1, 13)) and calls == records(n["_db"], sid), calls
        wait_until(v, "the lost listener reported", lambda: "listening connection was lost" in (a.stderr() + b.stderr()),
                   detail=lambda: a.stderr() + b.stderr())
        wait_until(v, "both nodes listening again", lambda: len(pgserver.rows(dbname, listeners)) == 2)


def case_pg_cluster_prompt_events_of_a_run_on_a_reach_a_stream_on_b(v):
    """A live prompt's streamed events on PostgreSQL: a session running on A streams a prompt (the
    static test provider, its reply in several pieces); a stream on B gets prompt_start /
    prompt_delta… / prompt_end with the same contents as a stream on A, before the prompt's `call`
    record (A NOTIFYs them on chidori_prompt_events, B's listener keeps them). Garbage NOTIFYs on
    that channel, sent by hand, are ignored: both nodes go on serving and nothing forged is streamed."""
    from cases_streaming import NO_PROVIDERS, TEXT
    env = dict(NO_PROVIDERS, CHIDORI_TEST_LLM_RESPONSE=TEXT)
    with cluster(v, ["node-a", "node-b"], env=env, pg=True) as n:
        a, b = n["node-a"], n["node-b"]
        dbname = n["_db"].name
        listeners = f"SELECT pid FROM pg_stat_activity WHERE datname = '{dbname}' AND query LIKE 'LISTEN %'"
        wait_until(v, "both nodes listening", lambda: len(pgserver.rows(dbname, listeners)) == 2)
        view = post(a, "/sessions", {"input": {"mode": "prompt"}}, 201)
        sid = view["id"]
        assert view["status"] == "paused" and view["pending_signal_name"] == "go", view
        ta, outa = stream(v, a, sid)
        tb, outb = stream(v, b, sid)
        time.sleep(0.5 * v.slow)  # both streams open, past the `paused` they send first

        def notify(payload):
            pgserver.psql(dbname, "SELECT pg_notify('chidori_prompt_events', '" + payload.replace("'", "''") + "')")
        forged = {"a": -1, "e": {"type": "prompt_delta", "seq": 1, "stream_id": "x", "prompt_type": "summary",
                                 "delta": "FORGED"}, "n": "node-z", "r": 0, "s": "no-such-session"}
        garbage = ["", "not json", "{", "[" * 3000 + "]" * 3000, '{"a":' * 1000, "{" * 7990, "\x01\x02",
                   json.dumps(dict(forged, s=sid, e=dict(forged["e"], delta=7))),       # a delta not a string
                   json.dumps(dict(forged, s=sid, e=dict(forged["e"], type="call"))),   # not a prompt event
                   json.dumps(dict(forged, s=sid, r=-3)), json.dumps(dict(forged, s=sid, r=1.5)),
                   json.dumps(dict(forged, s=sid, n="")), json.dumps(dict(forged, s=sid, e=[1, 2])),
                   json.dumps(dict(forged, s=sid, e=dict(forged["e"], seq={"deep": [[[[1]]]]}))),
                   json.dumps(forged)]                                                  # a session not here
        for junk in garbage:
            notify(junk)
        for s in (a, b):
            status, _, seen = s.request("GET", f"/sessions/{sid}")
            assert status == 200 and seen["status"] == "paused", (status, seen, s.stderr())
        post(a, f"/sessions/{sid}/signal", {"name": "go", "payload": 1})
        same_prompt_on_a_and_b(v, n, sid, (ta, outa), (tb, outb))


def same_prompt_on_a_and_b(v, n, sid, on_a, on_b):
    """The streams on A and B of a session that ran one streamed prompt: each gets prompt_start,
    the deltas, prompt_end, then the prompt's record; B's events are A's; nothing forged."""
    from cases_streaming import TEXT, prompts_of
    a, b = n["node-a"], n["node-b"]
    got = {}
    for name, (t, out) in (("a", on_a), ("b", on_b)):
        evs = stream_done(v, t, out)
        assert evs[-1][0] == "done" and evs[-1][1]["status"] == "completed", (name, evs)
        as_events = [dict(d, type=e) if e.startswith("prompt_") else {"type": e, "record": d} if e == "call"
                     else dict(d, type=e) for e, d in evs]
        got[name] = [e for e in as_events if e["type"].startswith("prompt_") or e["type"] == "call"]
        prompts = prompts_of(as_events)  # start, deltas, end, then the prompt's record, in that order
        assert len(prompts) == 1, (name, evs)
        start, deltas, end, rec = prompts[0]
        assert "".join(deltas) == TEXT and len(deltas) >= 3 and rec is not None, (name, deltas, rec)
        assert "FORGED" not in json.dumps(evs), (name, evs)
    assert got["b"] == got["a"], ("the stream on B differs from the stream on A", got)
    assert [d for e, d in stream_done(v, *stream(v, b, sid)) if e == "call"] == records(n["_db"], sid)
    for s in (a, b):
        assert s.proc.poll() is None, s.stderr()


def case_pg_cluster_prompt_events_reach_b_when_its_listener_is_behind(v):
    """The race of a relayed prompt: B's ticker reads the prompt's record from the store before B's
    listener has handled the prompt's events. Forced here: B is stopped (SIGSTOP) while 50,000 junk
    payloads go onto the prompt channel and the run on A, released from a gate of the test's HTTP
    server, streams its prompt and completes; then B goes on. Its ticker (it polls a session
    running elsewhere every 20 ms) is overdue and reads at once, while its listener still has the
    junk to go through before the prompt's events. B's stream sends a record read from the store
    only once B's listener has handled every notification committed before that read (a NOTIFY of
    its own, heard back), so the prompt's events still come before its record on B, as on A."""
    from cases_streaming import NO_PROVIDERS, TEXT
    env = dict(NO_PROVIDERS, CHIDORI_TEST_LLM_RESPONSE=TEXT, CHIDORI_CLUSTER_POLL_MS="20")
    with counting_server() as (port, counts), cluster(v, ["node-a", "node-b"], env=env, pg=True) as n:
        a, b = n["node-a"], n["node-b"]
        dbname = n["_db"].name
        listeners = f"SELECT pid FROM pg_stat_activity WHERE datname = '{dbname}' AND query LIKE 'LISTEN %'"
        wait_until(v, "both nodes listening", lambda: len(pgserver.rows(dbname, listeners)) == 2)
        base = f"http://127.0.0.1:{port}"
        view = post(a, "/sessions", {"input": {"mode": "prompt", "gate": base + "/gate?name=prompt"}}, 201)
        sid = view["id"]
        on_a, on_b = stream(v, a, sid), stream(v, b, sid)
        time.sleep(0.5 * v.slow)  # both streams open, past the `paused` they send first
        post(a, f"/sessions/{sid}/signal", {"name": "go", "payload": 1, "wait": False})
        wait_until(v, "B sees the run on A", lambda: b.request("GET", f"/sessions/{sid}")[2]["status"] == "running")
        wait_until(v, "the run held at the gate", lambda: counts()["paths"].get("/gate"))
        b.proc.send_signal(signal.SIGSTOP)
        try:
            pgserver.psql(dbname, "SELECT count(pg_notify('chidori_prompt_events', 'junk ' || g))"
                                  " FROM generate_series(1, 50000) g")
            with urllib.request.urlopen(base + "/open?name=prompt", timeout=30) as r:
                assert r.status == 200
            wait_until(v, "the run completed on A",
                       lambda: a.request("GET", f"/sessions/{sid}")[2]["status"] == "completed")
        finally:
            b.proc.send_signal(signal.SIGCONT)
        same_prompt_on_a_and_b(v, n, sid, on_a, on_b)
