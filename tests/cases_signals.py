"""tests/cases_signals.py — signals: chidori.signal / pollSignal / alarm, the per-session mailbox,
POST /sessions/{id}/signal, deadlines (also across a kill -9 of the server), the signal pause in
streams, and `chidori resume --signal` (docs/effects.md#signals, docs/http-api.md#signals,
docs/durable-runs.md).

The agents here are our own. Assertions are on content (records, outputs, statuses), never on how
long something took; every wait is bounded generously (Variant.slow).
"""
import http.client
import json
import os
import re
import tempfile
import threading
import time

from cases import chidori
from cases_serve import Server, create

# One listen point of each kind, in order: a poll, a single name with an optional timeout, a
# fan-in, then a poll of the first name again (what was sent after its listen point passed).
AGENT = """import { run } from "chidori:agent";
run(async (input, chidori) => {
  const early = await chidori.pollSignal("steer");
  const review = await chidori.signal("review", { timeoutMs: input.reviewMs });
  const any = await chidori.signal(["a", "b"], { timeoutMs: input.anyMs });
  const late = await chidori.pollSignal("review");
  return { early, review, any, late, tail: "as recorded" };
});
"""

# Asks a question first, so a signal can be sent before the run ever listens.
ASKER = """import { run } from "chidori:agent";
run(async (input, chidori) => {
  const answer = await chidori.input("Go?");
  const review = await chidori.signal("review");
  return { answer, review };
});
"""

# Two fan-ins on the same names: two racing signals are each taken exactly once.
FAN_IN = """import { run } from "chidori:agent";
run(async (input, chidori) => {
  const first = await chidori.signal(["a", "b"]);
  const second = await chidori.signal(["a", "b"]);
  return { first, second };
});
"""

ALARM = """import { run } from "chidori:agent";
run(async (input, chidori) => {
  const woke = await chidori.alarm(input.ms);
  return { woke };
});
"""


def serve_agent(v, text, *args, folder=None):
    folder = folder or tempfile.mkdtemp(prefix="chidori-signals-")
    agent = os.path.join(folder, "agent.js")
    if not os.path.exists(agent):
        with open(agent, "w") as f:
            f.write(text)
    return Server(v, *args, folder=folder, agent=agent), agent


def signal(s, sid, body):
    return s.request("POST", f"/sessions/{sid}/signal", body)


def log_of(s, sid):
    status, _, cp = s.request("GET", f"/sessions/{sid}/checkpoint")
    assert status == 200, (status, cp)
    return cp["call_log"]


def sig(name, payload=None, frm=None):
    return {"name": name, "payload": payload, "from": frm}


TIMED_OUT = {"payload": None, "from": None, "timedOut": True}


# ---------- the CLI ----------

def cli_pause_resume_replay(v, mode):
    with tempfile.TemporaryDirectory(prefix="chidori-signals-cli-") as folder:
        agent = os.path.join(folder, "agent.js")
        with open(agent, "w") as f:
            f.write(AGENT)
        state = os.path.join(folder, "state")
        code, out, err = chidori(v, "run", mode, agent, "-i", '{"reviewMs": 5000}', state=state)
        assert code == 3, (code, out, err)
        paused = json.loads(out)
        rid = paused["run_id"]
        assert paused["status"] == "paused" and paused["pending_signal"] == ["review"], paused
        assert "awaiting signal 'review'" in err and "--signal" in paused["resume"], err
        with open(os.path.join(state, "runs", rid, "run.json")) as f:
            meta = json.load(f)
        assert meta["pending"]["function"] == "signal" and meta["pending"]["seq"] == 2, meta
        assert meta["pending"]["args"] == {"name": "review", "timeout_ms": 5000}, meta
        # the wrong kind of answer, or a name it does not listen to: refused, nothing delivered
        code, _, err = chidori(v, "resume", mode, agent, rid, "--response", "yes", state=state)
        assert code == 2 and "--signal NAME" in err, err
        code, _, err = chidori(v, "resume", mode, agent, rid, "--signal", "other", state=state)
        assert code == 2 and "not `other`" in err, err
        code, _, err = chidori(v, "resume", mode, agent, rid, "--signal", "review", "--payload", "{bad", state=state)
        assert code == 2 and "--payload is not JSON" in err, err
        code, out, err = chidori(v, "resume", mode, agent, rid, "--signal", "review", "--payload", '{"ok": true}',
                                 "--from", '{"kind": "human", "id": "ana"}', state=state)
        assert code == 3 and json.loads(out)["pending_signal"] == ["a", "b"], (code, out, err)
        assert "awaiting signal any of 'a', 'b'" in err, err
        code, out, err = chidori(v, "resume", mode, agent, rid, "--signal", "b", "--payload", "7", state=state)
        assert code == 0, (code, out, err)
        got = json.loads(out)
        assert got == {"early": None, "review": sig("review", {"ok": True}, {"kind": "human", "id": "ana"}),
                       "any": sig("b", 7), "late": None, "tail": "as recorded"}, got
        with open(os.path.join(state, "runs", rid, "records.jsonl")) as f:
            records = [json.loads(line) for line in f]
        # the original's record shapes: {name} / {names}, the timeout not part of them
        assert [(r["seq"], r["function"], r["args"]) for r in records] == [
            (1, "poll_signal", {"name": "steer"}), (2, "signal", {"name": "review"}),
            (3, "signal_any", {"names": ["a", "b"]}), (4, "poll_signal", {"name": "review"})], records
        assert records[2]["result"] == sig("b", 7) and records[0]["result"] is None, records
        code, out2, err = chidori(v, "replay", mode, agent, rid, state=state)
        assert code == 0 and json.loads(out2) == got and "replay matched 4 records" in err, (code, out2, err)
        # run --stream: the done line of a signal pause names what it waits for
        code, out, err = chidori(v, "run", mode, "--stream", agent, state=state)
        done = json.loads(out.strip().splitlines()[-1])
        assert code == 0 and done["type"] == "done" and done["status"] == "paused", (code, out, err)
        assert done["pending_signal"] == ["review"], done


def case_cli_signal_pause_resume_replay_isolated(v):
    cli_pause_resume_replay(v, "--isolate")


def case_cli_signal_pause_resume_replay_in_process(v):
    cli_pause_resume_replay(v, "--no-isolate")


def case_cli_signal_arguments_are_checked(v):
    with tempfile.TemporaryDirectory(prefix="chidori-signals-args-") as folder:
        agent = os.path.join(folder, "agent.js")
        with open(agent, "w") as f:
            f.write("""export async function agent(input, chidori) {
  const out = [];
  for (const bad of ["", 3, [], ["ok", ""], "x".repeat(300)]) {
    try { await chidori.signal(bad); out.push("accepted"); } catch (e) { out.push(e.message); }
  }
  for (const ms of [0, -5, 1.5, "10"]) {
    try { await chidori.alarm(ms); out.push("accepted"); } catch (e) { out.push(e.message); }
  }
  return out;
}
""")
        code, out, err = chidori(v, "run", "--no-isolate", agent)
        assert code == 0, (code, out, err)
        got = json.loads(out)
        assert len(got) == 9 and all("chidori.signal:" in m for m in got[:5]), got
        assert all("chidori.alarm: ms must be a positive whole number" in m for m in got[5:]), got
        code, _, err = chidori(v, "run", agent, "--signal", "x")
        assert code == 2 and "--signal goes with resume" in err, err


# ---------- serve: the route and the mailbox ----------

def case_serve_signal_before_during_and_after_the_listen_point(v):
    s, _ = serve_agent(v, ASKER, "--no-isolate")
    try:
        s.start()
        # before: the run waits on an input; the signal is queued, and the listen point takes it
        view = create(s, {"input": {}})
        sid = view["id"]
        assert view["status"] == "paused" and view["pending_prompt"] == "Go?", view
        assert view["pending_signal_name"] is None and view["pending_seq"] == 1, view
        status, _, got = signal(s, sid, {"name": "review", "payload": {"n": 1}, "from": {"kind": "human", "id": "x"}})
        assert status == 202 and got == {"id": sid, "status": "queued", "name": "review", "delivery_seq": 1}, got
        status, _, done = s.request("POST", f"/sessions/{sid}/resume", {"response": "yes"})
        assert status == 200 and done["status"] == "completed", (status, done)
        assert done["output"] == {"answer": "yes", "review": sig("review", {"n": 1}, {"kind": "human", "id": "x"})}
        s.stop()
    finally:
        s.cleanup()
    s, _ = serve_agent(v, AGENT, "--isolate")
    try:
        s.start()
        view = create(s, {"input": {}})
        sid = view["id"]
        assert view["status"] == "paused" and view["pending_seq"] == 2, view
        assert view["pending_signal_name"] == "review" and view["pending_signal_names"] == ["review"], view
        assert view["pending_signal_deadline"] is None and view["pending_prompt"] is None, view
        m = s.request("GET", f"/sessions/{sid}/snapshot")[2]["snapshot_manifest"]
        assert m["pending"]["kind"] == "signal" and m["pending"]["seq"] == 2, m
        # during: paused on it, the signal resumes the run (200, the view after it settled)
        status, _, got = signal(s, sid, {"name": "review", "payload": "lgtm"})
        assert status == 200 and got["status"] == "paused", (status, got)
        assert got["pending_signal_names"] == ["a", "b"] and got["pending_seq"] == 3, got
        m = s.request("GET", f"/sessions/{sid}/snapshot")[2]["snapshot_manifest"]
        assert m["pending"]["kind"] == "signal" and m["pending"]["args"]["names"] == ["a", "b"], m
        # after its listen point passed: queued (it does not wake the fan-in), taken by the next poll
        status, _, got = signal(s, sid, {"name": "review", "payload": "again"})
        assert status == 202 and got["status"] == "queued", (status, got)
        assert s.request("GET", f"/sessions/{sid}")[2]["status"] == "paused"
        status, _, done = signal(s, sid, {"name": "a"})
        assert status == 200 and done["status"] == "completed", (status, done)
        assert done["output"] == {"early": None, "review": sig("review", "lgtm"), "any": sig("a"),
                                  "late": sig("review", "again"), "tail": "as recorded"}, done
        assert [r["function"] for r in log_of(s, sid)] == ["poll_signal", "signal", "signal_any", "poll_signal"]
        s.stop()
    finally:
        s.cleanup()


def case_serve_signal_to_a_finished_session_is_409(v):
    s, _ = serve_agent(v, ASKER, "--no-isolate")
    try:
        s.start()
        sid = create(s, {"input": {}})["id"]
        for bad, why in (({"name": " "}, "non-empty `name`"), ({}, "non-empty `name`"), ({"name": 3}, "non-empty"),
                         ({"name": "x", "extra": 1}, "unknown field"), ({"name": "x", "wait": "no"}, "true or false")):
            status, _, got = signal(s, sid, bad)
            assert status == 400 and why in got["error"], (bad, status, got)
        status, _, got = signal(s, "no-such-session", {"name": "x"})
        assert status == 404, (status, got)
        status, _, got = s.request("POST", f"/sessions/{sid}/cancel", {})
        assert status == 200 and got["status"] == "cancelled", got
        status, _, got = signal(s, sid, {"name": "review"})
        assert status == 409 and got == {"error": "session is Cancelled; cannot accept signals"}, (status, got)
        sid = create(s, {"input": {}})["id"]
        s.request("POST", f"/sessions/{sid}/resume", {"response": "y"})
        done = signal(s, sid, {"name": "review"})[2]
        assert done["status"] == "completed", done
        status, _, got = signal(s, sid, {"name": "review"})
        assert status == 409 and got == {"error": "session is Completed; cannot accept signals"}, (status, got)
        s.stop()
    finally:
        s.cleanup()


def case_serve_two_signals_race_for_one_signal_any(v):
    s, _ = serve_agent(v, FAN_IN, "--isolate")
    try:
        s.start()
        for _ in range(3):
            sid = create(s, {"input": {}})["id"]
            answers = {}

            def send(name):
                answers[name] = signal(s, sid, {"name": name, "payload": name.upper()})

            threads = [threading.Thread(target=send, args=(n,)) for n in ("a", "b")]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            statuses = sorted(answers[n][0] for n in ("a", "b"))
            assert statuses in ([200, 200], [200, 202]), answers
            done = s.wait_for(sid, lambda x: x["status"] != "paused" or x["pending_seq"] != 1, "past the first",
                              seconds=30)
            done = s.wait_for(sid, lambda x: x["status"] == "completed", "completed", seconds=30)
            out = done["output"]
            # each signal taken exactly once, one by each fan-in, whichever came first
            assert {out["first"]["name"], out["second"]["name"]} == {"a", "b"}, out
            assert all(out[k]["payload"] == out[k]["name"].upper() for k in ("first", "second")), out
            assert len(log_of(s, sid)) == 2
        s.stop()
    finally:
        s.cleanup()


def case_serve_signal_resume_with_changed_source_is_409_unless_allowed(v):
    s, agent = serve_agent(v, AGENT, "--no-isolate")
    try:
        s.start()
        sid = create(s, {"input": {}})["id"]
        before = log_of(s, sid)
        with open(agent, "w") as f:
            f.write(AGENT.replace('tail: "as recorded"', 'tail: "edited"'))
        status, _, got = signal(s, sid, {"name": "review", "payload": 1})
        assert status == 409 and "allow_source_change" in got["error"], (status, got)
        now = s.request("GET", f"/sessions/{sid}")[2]
        assert now["status"] == "paused" and now["pending_signal_name"] == "review", now
        assert log_of(s, sid) == before, "a refused signal changed the log"
        # with the flag: handed to the pause, and the run goes on against the edited agent
        status, _, got = signal(s, sid, {"name": "review", "payload": 2, "allow_source_change": True})
        assert status == 200 and got["status"] == "paused", (status, got, s.stderr())
        done = signal(s, sid, {"name": "b"})[2]
        assert done["status"] == "completed", done
        # the refused one was never delivered: the run took the second
        assert done["output"]["review"] == sig("review", 2) and done["output"]["tail"] == "edited", done
        # a deadline that passes with the source edited does not run the edited agent by itself
        with open(agent, "w") as f:
            f.write(AGENT)
        view = create(s, {"input": {"reviewMs": int(3000 * v.slow)}})
        with open(agent, "w") as f:
            f.write(AGENT.replace('tail: "as recorded"', 'tail: "edited"'))
        deadline = time.monotonic() + 30 * v.slow
        while time.monotonic() < deadline and "its signal deadline passed, but it is not resumed" not in s.stderr():
            time.sleep(0.05)
        assert "its signal deadline passed, but it is not resumed" in s.stderr(), s.stderr()
        now = s.request("GET", f"/sessions/{view['id']}")[2]
        assert now["status"] == "paused" and now["pending_seq"] == 2 and now["call_count"] == 1, now
        s.stop()
    finally:
        s.cleanup()


# ---------- serve: deadlines ----------

def case_serve_signal_timeouts_resolve_to_the_sentinel(v):
    s, _ = serve_agent(v, AGENT, "--no-isolate")
    try:
        s.start()
        view = create(s, {"input": {"reviewMs": int(1500 * v.slow), "anyMs": 300}})
        assert view["status"] == "paused" and view["pending_signal_deadline"], view
        assert re.match(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$", view["pending_signal_deadline"]), view
        done = s.wait_for(view["id"], lambda x: x["status"] == "completed", "timed out twice", seconds=30)
        assert done["output"]["review"] == {"name": "review", **TIMED_OUT}, done
        assert done["output"]["any"] == {"name": None, **TIMED_OUT}, done  # fan-in: no name
        # a timed-out listen point leaves the mailbox alone: a signal sent now waits for a listener
        s.stop()
    finally:
        s.cleanup()
    s, _ = serve_agent(v, ALARM, "--no-isolate")
    try:
        s.start()
        view = create(s, {"input": {"ms": 600000}})
        assert view["pending_signal_name"] == "__chidori.alarm__", view
        # a delivery under the alarm's name wakes it early
        status, _, done = signal(s, view["id"], {"name": "__chidori.alarm__", "payload": "early"})
        assert status == 200 and done["output"] == {"woke": sig("__chidori.alarm__", "early")}, done
        view = create(s, {"input": {"ms": 200}})
        done = s.wait_for(view["id"], lambda x: x["status"] == "completed", "woken", seconds=30)
        assert done["output"] == {"woke": {"name": "__chidori.alarm__", **TIMED_OUT}}, done
        s.stop()
    finally:
        s.cleanup()


def case_serve_signal_deadline_fires_after_a_kill_9_exactly_once(v):
    folder = tempfile.mkdtemp(prefix="chidori-signals-crash-")
    first, _ = serve_agent(v, AGENT, "--isolate", folder=folder)
    second, _ = serve_agent(v, AGENT, "--isolate", folder=folder)
    try:
        first.start()
        timeout_ms = int(2000 * v.slow)
        view = create(first, {"input": {"reviewMs": timeout_ms}})
        sid = view["id"]
        assert view["status"] == "paused" and view["pending_signal_deadline"], view
        first.kill()
        time.sleep(timeout_ms / 1000 + 0.5)  # the deadline passes while no server runs
        second.start()
        # re-armed at start, already past: fires at once; the run goes on to the fan-in
        got = second.wait_for(sid, lambda x: x["status"] == "paused" and x["pending_seq"] == 3, "past its deadline",
                              seconds=30)
        assert got["pending_signal_names"] == ["a", "b"], got
        records = log_of(second, sid)
        timed = [r for r in records if r["function"] == "signal"]
        assert len(timed) == 1 and timed[0]["result"] == {"name": "review", **TIMED_OUT}, records
        done = signal(second, sid, {"name": "a"})[2]
        assert done["status"] == "completed" and done["output"]["review"] == {"name": "review", **TIMED_OUT}, done
        assert sorted(r["seq"] for r in log_of(second, sid)) == [1, 2, 3, 4], "a record twice"
        second.stop()
    finally:
        first.cleanup()
        second.cleanup()


# ---------- serve: streams ----------

def case_serve_stream_stays_open_across_a_signal_pause(v):
    s, _ = serve_agent(v, FAN_IN, "--no-isolate")
    try:
        s.start()
        events, ended = [], threading.Event()

        def follow():  # the stream's events, as they arrive
            conn = http.client.HTTPConnection(s.host, s.port, timeout=60 * v.slow)
            conn.request("POST", "/sessions/stream", body=json.dumps({"input": {}}),
                         headers={"Content-Type": "application/json"})
            r = conn.getresponse()
            event = None
            for raw in r:
                line = raw.decode().rstrip("\n")
                if line.startswith("event: "):
                    event = line[7:]
                elif line.startswith("data: "):
                    events.append((event, json.loads(line[6:])))
            conn.close()
            ended.set()

        def wait_events(pred, what):
            deadline = time.monotonic() + 30 * v.slow
            while time.monotonic() < deadline and not pred():
                time.sleep(0.02)
            assert pred(), f"the stream never had {what}: {events}\n{s.stderr()}"

        t = threading.Thread(target=follow, daemon=True)
        t.start()
        wait_events(lambda: [e for e, _ in events] == ["paused"], "its first paused")
        sid = events[0][1]["id"]
        assert events[0][1]["pending_signal_names"] == ["a", "b"], events
        status, _, view = signal(s, sid, {"name": "a", "payload": 1})
        assert status == 200 and view["pending_seq"] == 2, view
        wait_events(lambda: [e for e, _ in events] == ["paused", "call", "paused"], "the second paused")
        assert not ended.is_set(), "the stream ended at a signal pause"
        status, _, view = signal(s, sid, {"name": "b", "payload": 2})
        assert status == 200 and view["status"] == "completed", view
        assert ended.wait(60 * v.slow), "the stream did not end"
        assert [e for e, _ in events] == ["paused", "call", "paused", "call", "done"], events
        assert events[1][1]["result"] == sig("a", 1) and events[3][1]["result"] == sig("b", 2), events
        assert events[-1][1]["output"] == {"first": sig("a", 1), "second": sig("b", 2)}, events
        s.stop()
    finally:
        s.cleanup()


def case_cli_signal_mailbox_garbage_and_an_interrupted_resume(v):
    """The run folder's mailbox is read as untrusted: garbage in it is an error that names it, and
    the run stays paused. A resume interrupted after the signal was handed (run.json `running`,
    the mailbox holding it, no record yet) continues from its log and takes that same signal."""
    with tempfile.TemporaryDirectory(prefix="chidori-signals-box-") as folder:
        agent = os.path.join(folder, "agent.js")
        with open(agent, "w") as f:
            f.write(ASKER.replace('const answer = await chidori.input("Go?");', 'const answer = "skipped";'))
        state = os.path.join(folder, "state")
        code, out, err = chidori(v, "run", "--no-isolate", agent, state=state)
        assert code == 3, (code, out, err)
        rid = json.loads(out)["run_id"]
        run_dir = os.path.join(state, "runs", rid)
        os.makedirs(os.path.join(run_dir, "signals"))
        box = os.path.join(run_dir, "signals", "inbox.json")
        for garbage in ("{not json", '{"a": 1}', '[{"name": 3, "delivery_seq": 1}]', "[1]"):
            with open(box, "w") as f:
                f.write(garbage)
            code, out, err = chidori(v, "resume", "--no-isolate", agent, rid, "--signal", "review", state=state)
            assert code == 1 and "signal mailbox" in err and "inbox.json" in err, (garbage, code, err)
            with open(os.path.join(run_dir, "run.json")) as f:
                assert json.load(f)["status"] == "paused", "a refused signal changed the run"
        # an interrupted resume: handed, marked running, killed before the record
        with open(box, "w") as f:
            json.dump([{"name": "review", "payload": "handed", "from": None, "delivery_seq": 1,
                        "enqueued_at": "2026-01-01T00:00:00.000Z", "taken_by": 1},
                       {"name": "review", "payload": "later", "from": None, "delivery_seq": 2,
                        "enqueued_at": "2026-01-01T00:00:00.000Z", "taken_by": None}], f)
        with open(os.path.join(run_dir, "run.json")) as f:
            meta = json.load(f)
        meta["status"] = "running"
        with open(os.path.join(run_dir, "run.json"), "w") as f:
            json.dump(meta, f)
        code, out, err = chidori(v, "resume", "--no-isolate", agent, rid, state=state)
        assert code == 0 and "interrupted" in err, (code, out, err)
        assert json.loads(out)["review"] == sig("review", "handed"), out
        with open(os.path.join(run_dir, "records.jsonl")) as f:
            records = [json.loads(line) for line in f]
        assert [(r["seq"], r["result"]["payload"]) for r in records] == [(1, "handed")], records
