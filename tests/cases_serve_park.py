"""tests/cases_serve_park.py — `chidori serve`'s parked runs (docs/http-api.md#parked-runs): a run
that pauses on an input, on a signal or for an approval keeps waiting, live, for
CHIDORI_SERVE_PARK_MS; a resume (a signal, its timeout, an approval) in that time goes on where the
run stopped instead of replaying the session's log from the top. What a client sees
(statuses, views, the log's calls and results) is the same as with a replay; the difference shows
in the input's record, whose duration is the time the parked run waited (a replayed resume appends
the answer with a duration of 0); a call that waited for an approval likewise has the wait in its
record's duration. Runs that cannot park (the cap, a deadline, a live actor), whose time ran out,
that were cancelled or denied, whose server stopped, whose agent was edited or whose session
another node went on with go the replay way; so do answers (signals) racing each other and the
time-out.

Serves tests/serve_park/agent.js (marks, then one or two inputs, then optionally two writes; or
marks, then one or two signals; or an actor at work while the run waits).
"""
import contextlib
import os
import shutil
import tempfile
import threading
import time

import cases_http

from cases_serve import Server, create, wall_clock_blanked
from run import ROOT

AGENT = os.path.join(ROOT, "tests", "serve_park", "agent.js")
WAIT = 0.4  # seconds between the pause and its resume


def server(v, env=None, *args, folder=None, agent=AGENT):
    return Server(v, *args, env=env, folder=folder, agent=agent)


@contextlib.contextmanager
def two_nodes(v, prefix, env=None):
    """Two servers on one SQLite database (node ids a and b), stopped by the case, cleaned after."""
    folder = tempfile.mkdtemp(prefix=prefix)
    nodes = []
    try:
        db = os.path.join(folder, "sessions.sqlite3")
        for n in ("a", "b"):
            nodes.append(server(v, {"CHIDORI_DB_PATH": db, "CHIDORI_NODE_ID": n, **(env or {}),
                                    "CHIDORI_STATE_DIR": os.path.join(folder, "state-" + n)}, folder=folder).start())
        yield nodes
    finally:
        for s in nodes:
            s.cleanup()
        shutil.rmtree(folder, ignore_errors=True)


def calls(s, sid):
    status, _, cp = s.request("GET", f"/sessions/{sid}/checkpoint")
    assert status == 200, (status, cp)
    return cp["call_log"]


def input_durations(s, sid):
    return [r["duration_ms"] for r in calls(s, sid) if r["function"] == "input"]


def resume(s, sid, response, want="completed"):
    status, _, got = s.request("POST", f"/sessions/{sid}/resume", {"response": response})
    assert status == 200 and got["status"] == want, (status, got, s.stderr())
    return got


def paused(s, body):
    view = create(s, body)
    assert view["status"] == "paused", view
    return view


def logged(s, sid):
    return [(r["seq"], r["function"], r["args"], wall_clock_blanked(r.get("result")), r.get("error"))
            for r in calls(s, sid)]


def case_serve_parked_run_goes_on_without_replay(v):
    """A resume of a parked run answers its input live: same views and log as a replay's, the wait
    in the input's record; the log replays to the same output. Isolated and in-process."""
    seen = {}
    for mode, env in (("--isolate", None), ("--no-isolate", None), ("--isolate", {"CHIDORI_SERVE_PARK_MS": "0"})):
        s = server(v, env, mode, "--trusted").start()
        try:
            view = paused(s, {"input": {"marks": 40, "twice": True}})
            sid = view["id"]
            assert view["pending_prompt"] == "First?" and view["call_count"] == 40, view
            time.sleep(WAIT)
            got = resume(s, sid, "a", want="paused")
            assert got["pending_prompt"] == "Second?" and got["call_count"] == 41, got
            time.sleep(WAIT)
            got = resume(s, sid, "b")
            assert got["output"] == {"first": "a", "second": "b", "edited": False}, got
            durations = input_durations(s, sid)
            if env:  # the replay way: each answer appended by the resume, no time of its own
                assert durations == [0, 0], durations
            else:  # the parked run waited for each answer
                assert all(d >= WAIT * 1000 * 0.9 for d in durations), durations
            seen[(mode, bool(env))] = (got["output"], logged(s, sid))
            status, _, again = s.request("POST", f"/sessions/{sid}/replay", {})
            assert status in (200, 201) and again["status"] == "completed" and again["output"] == got["output"], \
                (status, again)
            s.stop()
        finally:
            s.cleanup()
    assert seen[("--isolate", False)] == seen[("--no-isolate", False)] == seen[("--isolate", True)], seen


def case_serve_parked_runs_are_capped_and_end_in_time(v):
    """CHIDORI_SERVE_PARK_MAX runs park at once (the others pause the replay way); a parked run's
    time runs out after CHIDORI_SERVE_PARK_MS, and a run under a wall-clock deadline never parks.
    Each way's resume still gives the same output."""
    s = server(v, {"CHIDORI_SERVE_PARK_MAX": "1"}).start()
    try:
        a = paused(s, {"input": {"marks": 2}})["id"]
        b = paused(s, {"input": {"marks": 2}})["id"]
        time.sleep(WAIT)
        assert resume(s, b, "b")["output"]["first"] == "b"
        assert resume(s, a, "a")["output"]["first"] == "a"
        assert input_durations(s, b) == [0], input_durations(s, b)  # past the cap: replayed
        assert input_durations(s, a)[0] >= WAIT * 1000 * 0.9, input_durations(s, a)
        s.stop()
    finally:
        s.cleanup()
    for env in ({"CHIDORI_SERVE_PARK_MS": "200"}, {"CHIDORI_JS_DEADLINE_MS": "600000"}):
        s = server(v, env).start()
        try:
            sid = paused(s, {"input": {"marks": 2}})["id"]
            time.sleep(1.0)
            assert resume(s, sid, "late")["output"]["first"] == "late"
            assert input_durations(s, sid) == [0], (env, input_durations(s, sid))
            banner = "Parked runs: off (a wall-clock deadline is set" if "CHIDORI_JS_DEADLINE_MS" in env \
                else "Parked runs: up to 16, for 200 ms each"
            assert banner in s.stderr(), s.stderr()
            s.stop()
        finally:
            s.cleanup()


def case_serve_parked_run_cancelled_or_stopped(v):
    """A parked session can be cancelled (and then not resumed); a server stopped while runs are
    parked exits at once and cleanly, and the next server resumes them by replaying."""
    folder = tempfile.mkdtemp(prefix="chidori-park-")
    try:
        s = server(v, folder=folder).start()
        gone = paused(s, {"input": {"marks": 1}})["id"]
        kept = paused(s, {"input": {"marks": 3}})["id"]
        status, _, got = s.request("POST", f"/sessions/{gone}/cancel")
        assert status == 200 and got["status"] == "cancelled", got
        status, _, got = s.request("POST", f"/sessions/{gone}/resume", {"response": "x"})
        assert status == 409, (status, got)
        t0 = time.monotonic()
        s.stop()  # asserts exit 0 and no sanitizer report
        assert time.monotonic() - t0 < 10 * v.slow, "the parked run held the server's stop"
        s = server(v, folder=folder).start()
        status, _, view = s.request("GET", f"/sessions/{kept}")
        assert status == 200 and view["status"] == "paused" and view["pending_prompt"] == "First?", view
        assert resume(s, kept, "later")["output"]["first"] == "later"
        assert input_durations(s, kept) == [0], input_durations(s, kept)
        status, _, view = s.request("GET", f"/sessions/{gone}")
        assert view["status"] == "cancelled", view
        s.stop()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def case_serve_parked_run_of_an_edited_agent_is_replayed(v):
    """A resume that accepts an edited source (allow_source_change) replays the session with the new
    source: the parked run, of the source it was recorded by, is let go first. Without the flag the
    resume is refused and the parked run keeps waiting."""
    folder = tempfile.mkdtemp(prefix="chidori-park-src-")
    try:
        agent = os.path.join(folder, "agent.js")
        shutil.copy(AGENT, agent)
        s = server(v, folder=folder, agent=agent).start()
        sid = paused(s, {"input": {"marks": 2}})["id"]
        with open(agent) as f:
            text = f.read()
        assert "const EDITED = false;" in text
        with open(agent, "w") as f:
            f.write(text.replace("const EDITED = false;", "const EDITED = true;"))
        status, _, got = s.request("POST", f"/sessions/{sid}/resume", {"response": "x"})
        assert status == 409, (status, got)
        time.sleep(WAIT)
        status, _, got = s.request("POST", f"/sessions/{sid}/resume", {"response": "x", "allow_source_change": True})
        assert status == 200 and got["status"] == "completed", (status, got, s.stderr())
        assert got["output"] == {"first": "x", "second": None, "edited": True}, got
        assert input_durations(s, sid) == [0], input_durations(s, sid)
        s.stop()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def case_serve_parked_run_waits_for_an_approval_too(v):
    """A call that waits for an approval (the supervised profile asks before a workspace write)
    parks too: the approval hands it over, the call is performed in the same run and the approval is
    remembered (the identical second write does not ask). Same views, log and file as the replay
    way; a denial ends the parked run with the session failed as before."""
    seen = {}
    for env in (None, {"CHIDORI_SERVE_PARK_MS": "0"}):
        folder = tempfile.mkdtemp(prefix="chidori-park-approve-")
        try:
            s = server(v, env, "--trusted", folder=folder).start()
            sid = paused(s, {"input": {"marks": 2, "write": True}, "policy_profile": "supervised"})["id"]
            got = resume(s, sid, "approved", want="awaitingapproval")
            assert got["pending_approval"]["target"] == "workspace:write", got
            time.sleep(WAIT)
            status, _, got = s.request("POST", f"/sessions/{sid}/approve", {"decision": "allow"})
            assert status == 200 and got["status"] == "completed", (status, got, s.stderr())
            assert got["output"]["first"] == "approved", got
            with open(os.path.join(folder, "parked.txt")) as f:
                assert f.read() == "approved"
            writes = [r["duration_ms"] for r in calls(s, sid) if r["function"] == "workspace"]
            assert len(writes) == 2, calls(s, sid)
            if env:
                assert writes[0] < WAIT * 1000 * 0.5, writes  # performed by the re-run, at once
            else:
                assert writes[0] >= WAIT * 1000 * 0.9, writes  # the parked run waited for it
            seen[bool(env)] = (got["output"], logged(s, sid))
            denied = paused(s, {"input": {"write": True}, "policy_profile": "supervised"})["id"]
            resume(s, denied, "no", want="awaitingapproval")
            status, _, got = s.request("POST", f"/sessions/{denied}/approve", {"decision": "deny"})
            assert status == 200 and got["status"] == "failed" and "denied by operator" in got["error"], got
            time.sleep(0.2)
            status, _, got = s.request("GET", f"/sessions/{denied}")
            assert got["status"] == "failed" and "denied by operator" in got["error"], got
            s.stop()
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    assert seen[False] == seen[True], seen


def case_serve_parked_run_on_two_nodes(v):
    """Two servers on one database: a run parked on A, the session resumed on B (which replays it
    and parks at the next input), then resumed on A. A's parked run is no longer where the session
    is, so it goes and A replays: the session completes with both answers and one record per seq
    (handing the answer to A's stale run recorded a second seq and failed the session)."""
    with two_nodes(v, "chidori-park-nodes-") as nodes:
        a, b = nodes
        sid = paused(a, {"input": {"marks": 1, "twice": True}})["id"]
        got = resume(b, sid, "first", want="paused")
        assert got["pending_prompt"] == "Second?", got
        got = resume(a, sid, "second")
        assert got["output"] == {"first": "first", "second": "second", "edited": False}, got
        log = calls(a, sid)
        assert [r["seq"] for r in log] == [1, 2, 3, 4], log
        assert [(r["function"], r.get("result")) for r in log[1:3]] == [("input", "first"), ("input", "second")], log
        for s in nodes:
            s.stop()


def case_serve_parked_run_not_with_a_live_actor(v):
    """An actor spawned before the input works on its own thread: were the run parked, it would go
    on fetching while the session is stored as paused (and again in the replay if the park's time
    ran out). Such a run pauses the replay way, which stops its actors: nothing is fetched while
    the session waits, and the resume replays (the input's record has no wait of its own)."""
    with cases_http.server() as (port, counts):
        s = server(v, {"CHIDORI_HTTP_ALLOW_HOSTS": "127.0.0.1"}, "--trusted").start()
        try:
            body = {"input": {"fetcher": {"n": 20, "ms": 100, "base": f"http://127.0.0.1:{port}"}}}
            sid = paused(s, body)["id"]
            time.sleep(0.3)
            before = counts()["total"]
            time.sleep(1.5)
            after = counts()["total"]
            assert after == before, f"the actor fetched {after - before} times while the session was paused"
            got = resume(s, sid, "go")
            assert got["output"]["first"] == "go" and got["output"]["actor"]["output"] == {"fetched": 20}, got
            assert input_durations(s, sid) == [0], input_durations(s, sid)
            s.stop()
        finally:
            s.cleanup()


def case_serve_parked_run_gives_way_to_a_take_over(v):
    """A run parked on A; B resumes the session and dies while running it. A takes the session over
    once B's lease ends: its stale parked run goes at once instead of holding the take-over back
    until the park's time ran out (120 s here)."""
    with two_nodes(v, "chidori-park-takeover-", {"CHIDORI_LEASE_MS": "1000", "CHIDORI_SERVE_PARK_MS": "120000"}) as nodes:
        a, b = nodes
        sid = paused(a, {"input": {"spin": 150000000}})["id"]
        def resume_on_b():  # its node is killed before it answers
            try:
                b.request("POST", f"/sessions/{sid}/resume", {"response": "b"}, timeout=120)
            except (ConnectionError, OSError):
                pass
        threading.Thread(target=resume_on_b, daemon=True).start()
        time.sleep(1.0)  # b runs it (the spin takes seconds); a's parked run is stale now
        b.kill()
        t0 = time.monotonic()
        got = None
        while time.monotonic() - t0 < 60 * v.slow and (got or {}).get("status") != "completed":
            time.sleep(0.5)
            got = a.request("GET", f"/sessions/{sid}")[2]
        assert got["status"] == "completed" and got["output"]["first"] == "b", (got, a.stderr())
        assert "is still leaving its parked run" not in a.stderr(), a.stderr()
        a.stop()


def case_serve_parked_runs_under_racing_answers(v):
    """Twelve sessions whose answers come at random around the park's time-out (150 ms), two at a
    time for some and one after a cancel for others: every session ends as its requests say (the
    right answers, or cancelled), with one record per seq, and the server stops cleanly."""
    import random
    seed = int(os.environ.get("CHIDORI_PARK_SEED", "0")) or random.randrange(1, 1 << 30)
    try:
        racing_answers(v, random.Random(seed))
    except AssertionError as e:
        raise AssertionError(f"CHIDORI_PARK_SEED={seed} reproduces it: {e}") from e


def racing_answers(v, rnd):
    # twelve sessions at most run at once, so the server's own cap on running sessions (8 by
    # default; its 503 is another case's) cannot answer a resume here, however slow the build
    s = server(v, {"CHIDORI_SERVE_PARK_MS": "150", "CHIDORI_MAX_CONCURRENT_SESSIONS": "12"}).start()
    try:
        plans = []
        for i in range(12):
            sid = paused(s, {"input": {"marks": i % 3, "twice": True}})["id"]
            plans.append((sid, rnd.choice(["one", "two", "cancel"]), rnd.uniform(0.1, 0.2), rnd.uniform(0.1, 0.2)))
        outcomes = {}

        def drive(sid, how, d1, d2):
            time.sleep(d1)
            if how == "cancel":
                s.request("POST", f"/sessions/{sid}/cancel")
                outcomes[sid] = s.request("POST", f"/sessions/{sid}/resume", {"response": "x"})[0]
                return
            first = [None, None]

            def answer(k):
                first[k] = s.request("POST", f"/sessions/{sid}/resume", {"response": f"a{k}"})
            ts = [threading.Thread(target=answer, args=(k,)) for k in range(2 if how == "two" else 1)]
            for t in ts:
                t.start()
            for t in ts:
                t.join()
            time.sleep(d2)
            outcomes[sid] = (first, s.request("POST", f"/sessions/{sid}/resume", {"response": "b"}))
        threads = [threading.Thread(target=drive, args=p) for p in plans]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        for sid, how, _, _ in plans:
            _, _, view = s.request("GET", f"/sessions/{sid}")
            log = calls(s, sid)
            assert [r["seq"] for r in log] == list(range(1, len(log) + 1)), (how, log)
            if how == "cancel":
                assert view["status"] == "cancelled" and outcomes[sid] == 409, (view, outcomes[sid])
                continue
            first, last = outcomes[sid]
            responses = [r for r in first if r] + [last]
            assert all(r[0] in (200, 409) for r in responses), (how, responses)
            inputs = [r.get("result") for r in log if r["function"] == "input"]
            # each answer taken is one input's record (of two at once, the second may answer the
            # next input or be refused), and the output holds them
            assert len([r for r in responses if r[0] == 200]) == len(inputs) == 2, (how, responses, log)
            assert view["status"] == "completed", (how, view, s.stderr())
            assert [view["output"]["first"], view["output"]["second"]] == inputs, (view, log)
        s.stop()
    finally:
        s.cleanup()


def signal(s, sid, name, payload, want=200):
    status, _, got = s.request("POST", f"/sessions/{sid}/signal", {"name": name, "payload": payload})
    assert status == want, (status, got, s.stderr())
    return got


def signal_durations(s, sid):
    return [r["duration_ms"] for r in calls(s, sid) if r["function"] in ("signal", "signal_any")]


def case_serve_parked_signal_pause_goes_on_without_replay(v):
    """A run paused on chidori.signal parks as an input's does: the signal is handed to the same run
    (its record has the wait), while the replay way performs the call again at once. Views, log
    and output are the same either way, isolated and in-process, and the log replays to them; a
    list of names (signal_any) parks the same way."""
    seen = {}
    for mode, env in (("--isolate", None), ("--no-isolate", None), ("--isolate", {"CHIDORI_SERVE_PARK_MS": "0"})):
        s = server(v, env, mode).start()
        try:
            view = paused(s, {"input": {"marks": 20, "signal": "go", "twice": True}})
            sid = view["id"]
            assert view["pending_signal_name"] == "go" and view["pending_prompt"] is None, view
            time.sleep(WAIT)
            got = signal(s, sid, "go", {"n": 1})
            assert got["status"] == "paused" and got["pending_signal_name"] == "go" and got["call_count"] == 21, got
            time.sleep(WAIT)
            got = signal(s, sid, "go", {"n": 2})
            assert got["status"] == "completed", got
            out = got["output"]
            assert [out["first"]["payload"], out["second"]["payload"]] == [{"n": 1}, {"n": 2}], out
            durations = signal_durations(s, sid)
            assert len(durations) == 2, calls(s, sid)
            if env:  # performed again by the replay, which found the signal handed to it
                assert all(d < WAIT * 1000 * 0.5 for d in durations), durations
            else:  # the parked run waited for each
                assert all(d >= WAIT * 1000 * 0.9 for d in durations), durations
            seen[(mode, bool(env))] = (out, logged(s, sid))
            status, _, again = s.request("POST", f"/sessions/{sid}/replay", {})
            assert status in (200, 201) and again["status"] == "completed" and again["output"] == out, (status, again)
            # any of a list of names: the parked run takes the one sent
            sid = paused(s, {"input": {"signal": ["yes", "no"]}})["id"]
            time.sleep(WAIT)
            signal(s, sid, "maybe", 0, want=202)  # queued: not one it listens to
            got = signal(s, sid, "no", 3)
            assert got["status"] == "completed" and got["output"]["first"]["name"] == "no", got
            assert (signal_durations(s, sid)[0] < WAIT * 1000 * 0.5) == bool(env), signal_durations(s, sid)
            s.stop()
        finally:
            s.cleanup()
    assert seen[("--isolate", False)] == seen[("--no-isolate", False)] == seen[("--isolate", True)], seen


def case_serve_parked_signal_pause_times_out_in_place(v):
    """A parked signal pause with a timeout takes its timeout in the same run when the deadline
    fires (the record has the wait), as the replay way takes it by running again: the same output.
    A parked run whose park time ran out before its deadline is replayed by the deadline."""
    outs = {}
    for env in (None, {"CHIDORI_SERVE_PARK_MS": "0"}, {"CHIDORI_SERVE_PARK_MS": "150"}):
        s = server(v, env).start()
        try:
            view = paused(s, {"input": {"marks": 3, "signal": "go", "timeout": 700}})
            assert view["pending_signal_deadline"], view
            sid = view["id"]
            got = s.wait_for(sid, lambda x: x["status"] == "completed", f"completed ({env})")
            assert got["output"]["first"]["timedOut"] is True, got
            durations = signal_durations(s, sid)
            if env:  # the deadline's run performed the call again and took the sentinel at once
                assert durations[0] < 500, durations
            else:  # the parked run waited out its timeout
                assert durations[0] >= 600, durations
            outs[str(env)] = (got["output"], logged(s, sid))
            s.stop()
        finally:
            s.cleanup()
    assert len({repr(o) for o in outs.values()}) == 1, outs


def case_serve_parked_signal_of_an_edited_agent_is_replayed(v):
    """A signal sent with allow_source_change to a parked session whose agent was edited replays it
    with the new source (the parked run, of the old one, goes first); without the flag it is refused
    and the run keeps waiting."""
    folder = tempfile.mkdtemp(prefix="chidori-park-sig-src-")
    try:
        agent = os.path.join(folder, "agent.js")
        shutil.copy(AGENT, agent)
        s = server(v, folder=folder, agent=agent).start()
        sid = paused(s, {"input": {"marks": 2, "signal": "go"}})["id"]
        with open(agent) as f:
            text = f.read()
        with open(agent, "w") as f:
            f.write(text.replace("const EDITED = false;", "const EDITED = true;"))
        status, _, got = s.request("POST", f"/sessions/{sid}/signal", {"name": "go", "payload": 1})
        assert status == 409, (status, got)
        time.sleep(WAIT)
        status, _, got = s.request("POST", f"/sessions/{sid}/signal",
                                   {"name": "go", "payload": 2, "allow_source_change": True})
        assert status == 200 and got["status"] == "completed", (status, got, s.stderr())
        assert got["output"]["edited"] is True and got["output"]["first"]["payload"] == 2, got
        assert signal_durations(s, sid)[0] < WAIT * 1000 * 0.5, signal_durations(s, sid)
        s.stop()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def case_serve_parked_signal_on_two_nodes(v):
    """A signal pause parked on A, its signal sent to B (which replays it and parks at the next
    signal), the next signal sent to A: A's stale parked run goes and A replays; the session
    completes with both signals and one record per seq."""
    with two_nodes(v, "chidori-park-sig-nodes-") as nodes:
        a, b = nodes
        sid = paused(a, {"input": {"marks": 1, "signal": "go", "twice": True}})["id"]
        got = signal(b, sid, "go", "first")
        assert got["status"] == "paused", got
        got = signal(a, sid, "go", "second")
        assert got["status"] == "completed", got
        assert [got["output"]["first"]["payload"], got["output"]["second"]["payload"]] == ["first", "second"], got
        log = calls(a, sid)
        assert [r["seq"] for r in log] == [1, 2, 3, 4], log
        for s in nodes:
            s.stop()


def case_serve_parked_signals_racing(v):
    """Twelve sessions, each waiting for two signals of one name, sent two at once at random around
    the park's time-out (150 ms): every session completes with both payloads (in the order they
    were delivered), one record per seq, and the server stops cleanly."""
    import random
    seed = int(os.environ.get("CHIDORI_PARK_SEED", "0")) or random.randrange(1, 1 << 30)
    rnd = random.Random(seed)
    s = server(v, {"CHIDORI_SERVE_PARK_MS": "150", "CHIDORI_MAX_CONCURRENT_SESSIONS": "12"}).start()
    try:
        plans = [(paused(s, {"input": {"marks": i % 3, "signal": "go", "twice": True}})["id"],
                  rnd.uniform(0.05, 0.25)) for i in range(12)]
        sent = {}

        def send(sid, k, delay):
            time.sleep(delay)
            status, _, got = s.request("POST", f"/sessions/{sid}/signal", {"name": "go", "payload": k, "wait": False})
            sent[(sid, k)] = (status, got)

        threads = [threading.Thread(target=send, args=(sid, k, d + k * rnd.uniform(0, 0.05)))
                   for sid, d in plans for k in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        for sid, _ in plans:
            assert all(sent[(sid, k)][0] in (200, 202) for k in range(2)), (seed, sent[(sid, 0)], sent[(sid, 1)])
            view = s.wait_for(sid, lambda x: x["status"] == "completed", f"completed (seed {seed})")
            log = calls(s, sid)
            assert [r["seq"] for r in log] == list(range(1, len(log) + 1)), (seed, log)
            got = sorted([view["output"]["first"]["payload"], view["output"]["second"]["payload"]])
            assert got == [0, 1], (seed, view)
        s.stop()
    finally:
        s.cleanup()


def case_serve_signals_racing_on_two_nodes_are_never_409(v):
    """A session waiting on signal(["a", "b"]) twice; "a" sent to node A and "b" to node B at the same
    moment. One node's run starts; the other's signal is already in the mailbox then, so it is
    answered 202 (queued), never 409 "try again" (which had a client send it again, to be taken
    twice). Both are taken, once each, with parking on and off."""
    for park_ms in ("60000", "0"):
        with two_nodes(v, "chidori-sig-race-nodes-", {"CHIDORI_SERVE_PARK_MS": park_ms}) as nodes:
            a, b = nodes
            for _ in range(8):
                sid = paused(a, {"input": {"signal": ["a", "b"], "twice": True}})["id"]
                got = {}

                def send(node, name):
                    status, _, body = node.request("POST", f"/sessions/{sid}/signal",
                                                   {"name": name, "payload": name, "wait": False})
                    got[name] = (status, body)
                threads = [threading.Thread(target=send, args=p) for p in ((a, "a"), (b, "b"))]
                for t in threads:
                    t.start()
                for t in threads:
                    t.join()
                assert all(got[n][0] in (200, 202) for n in "ab"), (park_ms, got)
                view = a.wait_for(sid, lambda x: x["status"] == "completed", f"completed (park {park_ms}, {got})")
                taken = sorted(view["output"][k]["payload"] for k in ("first", "second"))
                assert taken == ["a", "b"], (park_ms, view)
            for s in nodes:
                s.stop()


def case_serve_signal_waits_out_a_lease_held_elsewhere(v):
    """A signal for a paused session whose lease another node holds (one cut off between its claim
    and its release) is stored and answered 202; no run can start yet. The server tries it again
    until the lease has expired, and the session then goes on and takes the signal once (it was
    left paused for good, the signal handed and never run). Parked and replayed alike."""
    import serve_db
    for park_ms in ("60000", "0"):
        s = server(v, {"CHIDORI_SERVE_PARK_MS": park_ms}).start()
        try:
            sid = paused(s, {"input": {"signal": "go"}})["id"]
            serve_db.hold_lease(v, s.env["CHIDORI_STATE_DIR"], sid, "ghost", 1500)
            status, _, got = s.request("POST", f"/sessions/{sid}/signal", {"name": "go", "payload": 7})
            assert status == 202 and got["status"] == "queued", (park_ms, status, got)
            t0 = time.monotonic()
            view = s.wait_for(sid, lambda x: x["status"] == "completed", f"completed (park {park_ms})", seconds=15)
            assert view["output"]["first"]["payload"] == 7, (park_ms, view, s.stderr())
            assert time.monotonic() - t0 >= 1.0, "it went on while the lease was still held elsewhere"
            assert [r["function"] for r in calls(s, sid)].count("signal") == 1, calls(s, sid)
            s.stop()
        finally:
            s.cleanup()
