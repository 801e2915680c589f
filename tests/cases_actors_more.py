"""tests/cases_actors_more.py — what actors (src/host/effects/actors.c) and signals
(src/host/effects/signal.c) do where they meet (docs/effects.md#actors): `chidori.signal`,
`signal([...])`, `pollSignal` and `alarm` inside an actor read its mailbox and block in place (a
timeout is the sentinel, the idle cap parks it `waiting on signal: a, b`, a stop settles it); the
run's own `chidori.receive` takes signals queued for the run (its inbox) before what actors sent to
"parent"; a branch starts with an empty inbox of its own and pauses on a signal (`waiting on
signal: <name>`), leaving the run's signals alone. Each run is then replayed from its log alone
(replay-only: nothing live) and prints the same output. Live scheduling interleaves, so assertions
are on content, never on timing.
"""
import json
import os
import tempfile

from cases import chidori
from cases_effects import fake_llm, run_id_of

# The parent waits for the listener to be ready, then sends c, go and b in that order.
LISTENS = """import { run, chidori } from "chidori:agent";
run(async () => {
  const l = await chidori.actors.spawn("actors/listener.js", {}, { name: "listener" });
  await chidori.receive("ready");
  await l.send("c", { k: "c" });
  await l.send("go", { k: "go" });
  await l.send("b", { k: "b" });
  const listened = await l.join();
  // no timeout and nothing sent: the idle cap parks it, waiting on the names
  const idle = await chidori.actors.spawn("actors/idle.js", {}, { idleTimeoutMs: 200 });
  const down = await chidori.receive("__chidori.down__");
  const idleOut = await idle.join();
  // blocked in place on a signal: status says waiting (and on what); a stop settles it
  const held = await chidori.actors.spawn("actors/held.js", {});
  let st = await held.status();
  for (let i = 0; i < 500 && st.status !== "waiting"; i++) {
    await chidori.actors.join(held, { timeoutMs: 20 });
    st = await held.status();
  }
  const stopped = await held.stop();
  return { listened, down: down.payload, idleOut, st, stopped };
});
"""
LISTENER = """import { run, chidori } from "chidori:agent";
run(async () => {
  const none = await chidori.pollSignal("go");
  await chidori.actors.send("parent", "ready", null);
  const go = await chidori.signal("go");
  const any = await chidori.signal(["a", "b"]);
  const polled = await chidori.pollSignal("c");
  const late = await chidori.signal("never", { timeoutMs: 50 });
  const lateAny = await chidori.signal(["n1", "n2"], { timeoutMs: 50 });
  const woke = await chidori.alarm(30);
  return { none, go, any, polled, late, lateAny, woke };
});
"""
IDLE = """import { run, chidori } from "chidori:agent";
run(async () => { await chidori.signal(["x", "y"]); return "not reached"; });
"""
HELD = """import { run, chidori } from "chidori:agent";
run(async () => { await chidori.signal("never"); return "not reached"; });
"""


def project(files):
    d = tempfile.mkdtemp(prefix="chidori-actors-more-")
    os.makedirs(os.path.join(d, "actors"))
    for name, text in files.items():
        with open(os.path.join(d, name), "w") as f:
            f.write(text)
    return d


def records_of(state, rid):
    with open(os.path.join(state, "runs", rid, "records.jsonl")) as f:
        return [json.loads(line) for line in f]


def msg(name, payload, frm=None):
    return {"name": name, "payload": payload, "from": frm}


def sentinel(name):
    return {"name": name, "payload": None, "from": None, "timedOut": True}


def case_actor_signal_listen_points_read_its_mailbox(v):
    """Inside an actor, pollSignal/signal/signal([...])/alarm take from its mailbox: a poll of
    nothing is null, a signal blocks in place until its message comes (c, sent before go, is still
    queued for the later poll), a timeout is the sentinel (name null for a list), alarm's names
    __chidori.alarm__; with no timeout the idle cap parks it paused `waiting on signal: x, y` and
    its owner hears __chidori.down__; an actor blocked on a signal is `waiting` on it, and a stop
    settles it `stopped`. The records are the signal ops' shapes; the replay is equal. In-process
    and isolated alike."""
    d = project({"agent.js": LISTENS, "actors/listener.js": LISTENER, "actors/idle.js": IDLE,
                 "actors/held.js": HELD})
    for mode in ("--no-isolate", "--isolate"):
        with tempfile.TemporaryDirectory() as state:
            code, out, err = chidori(v, "run", mode, os.path.join(d, "agent.js"), state=state, timeout=120)
            assert code == 0, f"{mode}: exit {code}\n{out}\n{err[-3000:]}"
            g = json.loads(out)
            run_from = {"kind": "agent", "id": "run"}
            assert g["listened"]["status"] == "completed", (mode, g)
            assert g["listened"]["output"] == {
                "none": None, "go": msg("go", {"k": "go"}, run_from), "any": msg("b", {"k": "b"}, run_from),
                "polled": msg("c", {"k": "c"}, run_from), "late": sentinel("never"), "lateAny": sentinel(None),
                "woke": sentinel("__chidori.alarm__")}, (mode, g["listened"])
            assert g["down"]["status"] == "paused" and g["down"]["pendingPrompt"] == "waiting on signal: x, y", g
            assert g["idleOut"]["status"] == "paused" and g["idleOut"]["pendingPrompt"] == "waiting on signal: x, y", g
            assert g["st"]["status"] == "waiting" and g["st"]["waitingFor"] == ["never"], (mode, g["st"])
            assert g["stopped"]["status"] == "stopped", (mode, g["stopped"])
            rid = run_id_of(err)
            recs = records_of(state, rid)
            mine = [(r["function"], r["args"]) for r in recs if 10**12 < r["seq"] < 2 * 10**12 and "parent_seq" in r]
            assert mine == [("poll_signal", {"name": "go"}),
                            ("send_actor", {"from": {"kind": "agent", "id": "actor-1"}, "name": "ready",
                                            "payload": None, "to": "parent"}),
                            ("signal", {"name": "go"}), ("signal_any", {"names": ["a", "b"]}),
                            ("poll_signal", {"name": "c"}), ("signal", {"name": "never"}),
                            ("signal_any", {"names": ["n1", "n2"]}), ("signal", {"name": "__chidori.alarm__"})], \
                (mode, mine)
            code2, out2, err2 = chidori(v, "replay", mode, os.path.join(d, "agent.js"), rid, state=state, timeout=120)
            assert code2 == 0 and out2 == out, f"{mode} replay: exit {code2}\n{out2}\n{err2[-3000:]}"
            assert "replay matched" in err2, err2


# The run asks first, so signals can be queued for it before it listens.
RUN_RECEIVE = """import { run, chidori } from "chidori:agent";
run(async () => {
  const answer = await chidori.input("go?");
  const first = await chidori.receive(["hello", "other"]);
  const second = await chidori.receive("hello", { timeoutMs: 60000 });
  const none = await chidori.receive("hello", { timeoutMs: 30 });
  return { answer, first, second, none };
});
"""


def queue_for_run(state, rid, entries):
    """Signals queued for a paused run, in its run folder's mailbox (what a delivery to a run
    paused on something else writes)."""
    os.makedirs(os.path.join(state, "runs", rid, "signals"), exist_ok=True)
    with open(os.path.join(state, "runs", rid, "signals", "inbox.json"), "w") as f:
        json.dump([{"name": n, "payload": p, "from": {"kind": "external", "id": "test"}, "delivery_seq": d,
                    "enqueued_at": "2026-01-01T00:00:00Z", "taken_by": None} for n, p, d in entries], f)


def case_run_receive_takes_the_runs_inbox(v):
    """The run's own chidori.receive takes signals queued for the run, the earliest first (by
    delivery order), with no actor anywhere; each is taken once (marked with the receive's seq);
    with nothing left a timeout resolves to the sentinel. The replay is equal and reads no mailbox."""
    d = project({"agent.js": RUN_RECEIVE})
    with tempfile.TemporaryDirectory() as state:
        code, out, err = chidori(v, "run", os.path.join(d, "agent.js"), state=state, timeout=60)
        assert code == 3, f"exit {code}\n{out}\n{err[-3000:]}"
        rid = run_id_of(err)
        queue_for_run(state, rid, [("hello", "second", 2), ("hello", "first", 1), ("unheard", 0, 3)])
        code, out, err = chidori(v, "resume", os.path.join(d, "agent.js"), rid, "--response", "yes", state=state,
                                 timeout=60)
        assert code == 0, f"resume: exit {code}\n{out}\n{err[-3000:]}"
        g = json.loads(out)
        ext = {"kind": "external", "id": "test"}
        assert g == {"answer": "yes", "first": msg("hello", "first", ext), "second": msg("hello", "second", ext),
                     "none": sentinel("hello")}, g
        recs = records_of(state, rid)
        got = [(r["seq"], r["function"], r["args"]["names"]) for r in recs if r["function"] == "receive"]
        assert got == [(2, "receive", ["hello", "other"]), (3, "receive", ["hello"]), (4, "receive", ["hello"])], got
        with open(os.path.join(state, "runs", rid, "signals", "inbox.json")) as f:
            inbox = {e["payload"]: e["taken_by"] for e in json.load(f)}
        assert inbox == {"first": 2, "second": 3, 0: None}, inbox
        code2, out2, err2 = chidori(v, "replay", os.path.join(d, "agent.js"), rid, state=state, timeout=60)
        assert code2 == 0 and out2 == out and "replay matched" in err2, f"replay: exit {code2}\n{out2}\n{err2[-3000:]}"


BRANCHES = """import { run, chidori } from "chidori:agent";
run(async () => {
  const answer = await chidori.input("go?");
  const outcomes = await chidori.branch([{ label: "listens", source: "waits.js", input: {} }]);
  const mine = await chidori.pollSignal("go");
  return { answer, outcomes: outcomes.map((o) => ({ label: o.label, status: o.status, pendingPrompt: o.pendingPrompt })),
           mine };
});
"""
WAITS = """import { run, chidori } from "chidori:agent";
run(async () => { const s = await chidori.signal("go"); return s; });
"""


def case_branch_signal_pauses_the_branch_not_the_run(v):
    """A branch starts with an empty inbox of its own (the original's behaviour): its signal("go")
    pauses the branch (`waiting on signal: go`) even though a "go" is queued for the run, which the
    run itself then takes. The replay is equal."""
    d = project({"agent.js": BRANCHES, "waits.js": WAITS})
    with tempfile.TemporaryDirectory() as state:
        code, out, err = chidori(v, "run", os.path.join(d, "agent.js"), state=state, timeout=60)
        assert code == 3, f"exit {code}\n{out}\n{err[-3000:]}"
        rid = run_id_of(err)
        queue_for_run(state, rid, [("go", "for the run", 1)])
        code, out, err = chidori(v, "resume", os.path.join(d, "agent.js"), rid, "--response", "yes", state=state,
                                 timeout=60)
        assert code == 0, f"resume: exit {code}\n{out}\n{err[-3000:]}"
        g = json.loads(out)
        assert g["outcomes"] == [{"label": "listens", "status": "paused", "pendingPrompt": "waiting on signal: go"}], g
        assert g["mine"] == msg("go", "for the run", {"kind": "external", "id": "test"}), g
        code2, out2, err2 = chidori(v, "replay", os.path.join(d, "agent.js"), rid, state=state, timeout=60)
        assert code2 == 0 and out2 == out and "replay matched" in err2, f"replay: exit {code2}\n{out2}\n{err2[-3000:]}"


# intercept: the child's default model, its tools and its workspace, narrowed; a grandchild narrows
# further (it never widens: its tools are intersected with its parent's, the model is inherited).
INTERCEPT = """import { run, chidori } from "chidori:agent";
run(async () => {
  const child = await chidori.actors.spawn("actors/narrow.js", { depth: 0 },
    { intercept: { model: "cheap-model", tools: ["counter__count"], workspace: "sandbox" } });
  const out = await child.join();
  const plain = await chidori.actors.spawn("actors/plain.js", {}, { intercept: {} });
  await plain.join();
  const rooted = await chidori.actors.spawn("actors/plain.js", {}, { intercept: { workspace: { root: "sandbox" } } });
  await rooted.join();
  const refused = [];
  for (const intercept of ["x", { tools: "counter__count" }, { tools: [1] }, { workspace: "../up" },
                           { workspace: "/abs" }, { workspace: 5 }, { model: 5 }]) {
    try { await chidori.actors.spawn("actors/plain.js", {}, { intercept }); refused.push("spawned"); }
    catch (e) { refused.push(e.message); }
  }
  const failed = [];
  for (const workspace of ["missing", "escape"]) {
    try { await chidori.actors.spawn("actors/plain.js", {}, { intercept: { workspace } }); failed.push("spawned"); }
    catch (e) { failed.push(e.message); }
  }
  return { out: out.output, refused, failed };
});
"""
NARROW = """import { run, chidori } from "chidori:agent";
run(async (input) => {
  await chidori.workspace.write("note.txt", "written at depth " + input.depth);
  const reply = await chidori.prompt("hello from depth " + input.depth);
  const tools = {};
  for (const name of ["counter__count", "x__y"]) {
    try { await chidori.tool(name, {}); tools[name] = "ran"; } catch (e) { tools[name] = e.message; }
  }
  let inner = null;
  if (input.depth === 0) {
    const g = await chidori.actors.spawn("actors/narrow.js", { depth: 1 },
      { intercept: { tools: ["counter__count", "x__y"], workspace: "inner" } });
    inner = (await g.join()).output;
  }
  return { reply, tools, inner };
});
"""
PLAIN = """import { run, chidori } from "chidori:agent";
run(async () => "plain");
"""


def case_actor_intercept_narrows_model_tools_and_workspace(v):
    """spawn's intercept: the child's prompts ask intercept.model (its child inherits it); a tool
    outside intercept.tools does not exist for it (a grandchild's list is intersected with its
    parent's: x__y stays out); intercept.workspace makes <root>/<sub> its workspace root, nested for
    the grandchild. The record keeps the one form (workspace a string, {} left out); bad values are
    refused before anything is recorded; a missing folder or a symlink out of the workspace fails
    the call. The replay is equal and reaches no provider."""
    d = project({"agent.js": INTERCEPT, "actors/narrow.js": NARROW, "actors/plain.js": PLAIN})
    os.makedirs(os.path.join(d, "sandbox", "inner"))
    outside = tempfile.mkdtemp(prefix="chidori-outside-")
    os.symlink(outside, os.path.join(d, "escape"))
    with tempfile.TemporaryDirectory() as state, fake_llm([{"text": "ok"}] * 2) as (base, requests):
        env = {"OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": base + "/v1"}
        code, out, err = chidori(v, "run", os.path.join(d, "agent.js"), env=env, state=state, timeout=120)
        assert code == 0, f"exit {code}\n{out}\n{err[-3000:]}"
        g = json.loads(out)
        bodies = [r["body"] if isinstance(r["body"], dict) else json.loads(r["body"]) for r in requests()["requests"] if r["method"] == "POST"]
        assert sorted(b["model"] for b in bodies) == ["cheap-model", "cheap-model"], bodies
        not_given = "Unknown tool: x__y (this actor's intercept.tools does not include it"
        assert g["out"]["tools"]["x__y"].startswith(not_given), g
        assert g["out"]["inner"]["tools"]["x__y"].startswith(not_given), g
        # counter__count is allowed: it gets past the narrowing (to "no tools are configured")
        assert "intercept.tools" not in g["out"]["tools"]["counter__count"], g
        assert "intercept.tools" not in g["out"]["inner"]["tools"]["counter__count"], g
        with open(os.path.join(d, "sandbox", "note.txt")) as f:
            assert f.read() == "written at depth 0"
        with open(os.path.join(d, "sandbox", "inner", "note.txt")) as f:
            assert f.read() == "written at depth 1"
        assert not os.path.exists(os.path.join(d, "note.txt")) and os.listdir(outside) == []
        assert g["refused"] == [
            "chidori.actors.spawn: `intercept` must be an object {model?, tools?: string[], workspace?: string | {root}}",
            "chidori.actors.spawn: intercept.tools must be an array of at most 256 tool names (<server>__<tool>)",
            "chidori.actors.spawn: intercept.tools must be an array of at most 256 tool names (<server>__<tool>)",
            "chidori.actors.spawn: intercept.workspace `../up` must be a relative subpath without `..` — a child can "
            "only narrow its spawner's workspace, never escape it",
            "chidori.actors.spawn: intercept.workspace `/abs` must be a relative subpath without `..` — a child can "
            "only narrow its spawner's workspace, never escape it",
            "chidori.actors.spawn: intercept.workspace must be a subpath string (or { root: \"subpath\" })",
            "chidori.actors.spawn: intercept.model must be a model name (a non-empty string of at most 256 bytes)",
        ], g["refused"]
        assert g["failed"][0].startswith("chidori.actors.spawn: intercept.workspace `missing` is not a folder inside "
                                         "the spawner's workspace"), g["failed"]
        assert "it leads outside the workspace" in g["failed"][1], g["failed"]
        rid = run_id_of(err)
        recs = records_of(state, rid)
        spawns = [r for r in recs if r["function"] == "spawn_actor"]
        top = [r for r in spawns if "parent_seq" not in r]
        assert [r["args"]["options"].get("intercept") for r in top] == [
            {"model": "cheap-model", "tools": ["counter__count"], "workspace": "sandbox"}, None,
            {"workspace": "sandbox"}, {"workspace": "missing"}, {"workspace": "escape"}], top
        assert "intercept" not in top[1]["args"]["options"], top[1]
        assert [("error" in r) for r in top] == [False, False, False, True, True], top
        inner = [r for r in spawns if "parent_seq" in r]
        assert [r["args"]["options"]["intercept"] for r in inner] == [
            {"tools": ["counter__count", "x__y"], "workspace": "inner"}], inner
        code2, out2, err2 = chidori(v, "replay", os.path.join(d, "agent.js"), rid, env=env, state=state, timeout=120)
        assert code2 == 0 and out2 == out and "replay matched" in err2, f"replay: exit {code2}\n{out2}\n{err2[-3000:]}"
        assert requests()["counts"]["openai"] == 2, "the replay reached the provider"


# crash resume: the run pauses with an actor spawned and sent to but never joined; after the
# resume the first live call naming it is a status.
STATUS_FIRST = """import { run, chidori } from "chidori:agent";
run(async () => {
  const w = await chidori.actors.spawn("actors/adder.js", { base: 100 }, { name: "adder" });
  await w.send("add", { n: 5 });
  const answer = await chidori.input("go on?");
  const st = await chidori.actors.status("adder");
  await w.send("add", { n: 7 });
  await w.send("done", null);
  const o = await w.join();
  return { answer, st: { pid: st.pid, known: st.status !== "unknown" }, outcome: o };
});
"""
ADDER = """import { run, chidori } from "chidori:agent";
run(async (input) => {
  let total = input.base;
  for (;;) {
    const m = await chidori.receive(["add", "done"]);
    if (m.name === "done") break;
    total += m.payload.n;
  }
  return total;
});
"""


def case_actor_status_after_resume_recreates_the_actor(v):
    """After a resume, an actors.status naming an actor that was recorded but never joined starts it
    again (as a send, join or stop does): the status names the new pid, not `unknown`, and the actor,
    its mailbox refilled from the recorded send, sees every message once."""
    d = project({"agent.js": STATUS_FIRST, "actors/adder.js": ADDER})
    with tempfile.TemporaryDirectory() as state:
        code, out, err = chidori(v, "run", os.path.join(d, "agent.js"), state=state, timeout=60)
        assert code == 3, f"exit {code}\n{err[-3000:]}"
        rid = run_id_of(err)
        code, out, err = chidori(v, "resume", os.path.join(d, "agent.js"), rid, "--response", "yes", state=state,
                                 timeout=60)
        assert code == 0, f"resume: exit {code}\n{err[-3000:]}"
        got = json.loads(out)
        assert got["st"] == {"pid": "actor-2", "known": True}, got
        assert got["outcome"]["status"] == "completed" and got["outcome"]["output"] == 112, got
        code2, out2, err2 = chidori(v, "replay", os.path.join(d, "agent.js"), rid, state=state, timeout=60)
        assert code2 == 0 and out2 == out and "replay matched" in err2, f"replay: exit {code2}\n{out2}\n{err2[-3000:]}"
