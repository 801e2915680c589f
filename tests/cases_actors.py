"""tests/cases_actors.py — chidori.actors.* and chidori.receive (src/host/effects/actors.c on the
member primitive, src/runner/member_run.c; docs/effects.md#actors): an actor tree's records lie in
the original's carved ranges under the joins that merged them, and a replay answers the whole tree
from the log with zero live effects and the same output; a crashing actor is restarted by its
supervisor (clean: from nothing; resume: its history replayed, the failed call run again); join,
stop, status and lookup; the original's error texts; an actor recorded but never joined is started
again after a resume; isolated and in-process runs give the same output. Real processes: the fake
provider. Live scheduling interleaves, so assertions are on content, never on timing.
"""
import json
import os
import tempfile

from cases import chidori
from cases_effects import fake_llm, run_id_of

# A tree: the run -> two supervisors -> two workers each; workers ask the model, answer "parent".
TREE = """import { run, chidori } from "chidori:agent";
run(async () => {
  await chidori.log("tree starts");
  const shards = [
    await chidori.actors.spawn("actors/supervisor.js", { tasks: [1, 2], workers: 2 }),
    await chidori.actors.spawn("actors/supervisor.js", { tasks: [3, 4], workers: 2 }),
  ];
  const outcomes = [];
  for (const s of shards) outcomes.push(await s.join());
  await chidori.log("tree ends");
  // pids are given in spawn order over the whole tree: how the first supervisor interleaves with
  // the run decides the second one's, so the output leaves them out
  return outcomes.map((o) => ({ status: o.status, restarts: o.restarts, output: o.output }));
});
"""
SUPERVISOR = """import { run, chidori } from "chidori:agent";
run(async (input) => {
  const pool = [];
  for (let id = 1; id <= input.workers; id++)
    pool.push(await chidori.actors.spawn("actors/worker.js", { id }, { restart: "clean", maxRestarts: 1 }));
  for (let i = 0; i < input.workers; i++) await chidori.receive("ready");
  for (const [i, n] of input.tasks.entries()) await pool[i % pool.length].send("task", { n });
  const results = [];
  while (results.length < input.tasks.length) results.push((await chidori.receive("result")).payload);
  for (const w of pool) await w.send("finish", null);
  const joined = [];
  for (const w of pool) joined.push((await w.join()).output);
  results.sort((a, b) => a.n - b.n);
  joined.sort((a, b) => a.id - b.id);
  return { results, joined };
});
"""
WORKER = """import { run, chidori } from "chidori:agent";
run(async (input) => {
  await chidori.actors.send("parent", "ready", { id: input.id });
  const handled = [];
  for (;;) {
    const msg = await chidori.receive(["task", "finish"]);
    if (msg.timedOut || msg.name === "finish") break;
    const reply = await chidori.prompt("square " + msg.payload.n);
    handled.push(msg.payload.n);
    await chidori.actors.send("parent", "result", { n: msg.payload.n, square: msg.payload.n ** 2, reply });
  }
  return { id: input.id, handled: handled.length, r: Math.floor(Math.random() * 1e9) };
});
"""
# Restarts: the actor asks the model once; the first answer is a provider failure.
RESTARTS = """import { run, chidori } from "chidori:agent";
run(async (input) => {
  const a = await chidori.actors.spawn("actors/asker.js", { tag: input.restart },
                                       { restart: input.restart, maxRestarts: 2, backoffMs: 10 });
  return await a.join();
});
"""
ASKER = """import { run, chidori } from "chidori:agent";
run(async (input) => {
  await chidori.log("asker begins " + input.tag);
  const reply = await chidori.prompt("question " + input.tag);
  return { tag: input.tag, reply };
});
"""
# A failure with no restart left: the owner hears __chidori.down__.
DOWN = """import { run, chidori } from "chidori:agent";
run(async () => {
  const a = await chidori.actors.spawn("actors/throws.js", {}, { name: "doomed" });
  const msg = await chidori.receive(["result", "__chidori.down__"]);
  const outcome = await a.join();
  return { msg, outcome };
});
"""
THROWS = """import { run, chidori } from "chidori:agent";
run(async () => { await chidori.log("about to fail"); throw new Error("this actor broke"); });
"""
# join/stop/status/lookup, the owner-only rule, idle parking
LIFECYCLE = """import { run, chidori } from "chidori:agent";
run(async () => {
  const echo = await chidori.actors.spawn("actors/echo.js", {}, { name: "echo" });
  await echo.send("ping", { k: 1 });
  const pong = await chidori.receive("pong");
  let st = await echo.status();
  for (let i = 0; i < 500 && st.status !== "waiting"; i++) {
    const j = await chidori.actors.join(echo, { timeoutMs: 20 });
    if (j.status !== "running") throw new Error("join returned " + JSON.stringify(j));
    st = await echo.status();
  }
  const found = await chidori.actors.lookup("echo");
  const missing = await chidori.actors.lookup("nobody");
  const stopped = await echo.stop();
  const again = await chidori.actors.join("echo");
  const after = await chidori.actors.status("echo");
  const late = await echo.send("ping", { k: 2 });
  const unknown = await chidori.actors.status("actor-77");
  // a supervisor's child is settled by the supervisor only
  const mid = await chidori.actors.spawn("actors/mid.js", {});
  const child = (await chidori.receive("child")).payload;
  let refused = null;
  try { await chidori.actors.join(child); } catch (e) { refused = e.message; }
  await mid.send("go", null);
  const midOut = await mid.join();
  // an actor idle past idleTimeoutMs parks as paused and tells its owner
  const idle = await chidori.actors.spawn("actors/echo.js", {}, { idleTimeoutMs: 200 });
  const down = await chidori.receive("__chidori.down__");
  const idleOut = await idle.join();
  return { pong: pong.payload, from: pong.from, waiting: st, found: found && found.pid, missing, stopped, again,
           after, late, unknown, refused, midOut, down: down.payload, idleOut };
});
"""
ECHO = """import { run, chidori } from "chidori:agent";
run(async () => {
  const m = await chidori.receive("ping");
  await chidori.actors.send("parent", "pong", m.payload);
  await chidori.receive("never-sent");
  return "unreachable";
});
"""
MID = """import { run, chidori } from "chidori:agent";
run(async () => {
  const c = await chidori.actors.spawn("actors/leaf.js", {});
  await chidori.actors.send("parent", "child", c.pid);
  await chidori.receive("go");
  const o = await c.join();
  return { child: o.status, childOutput: o.output };
});
"""
LEAF = """import { run, chidori } from "chidori:agent";
run(async () => { await chidori.log("leaf"); return "leaf done"; });
"""
ERRORS = """import { run, chidori } from "chidori:agent";
const tries = [
  () => chidori.actors.spawn(),
  () => chidori.actors.spawn("actors/missing.js"),
  () => chidori.actors.spawn("actors/leaf.js", {}, { name: "parent" }),
  () => chidori.actors.spawn("actors/leaf.js", {}, { name: "actor-3" }),
  () => chidori.actors.spawn("actors/leaf.js", {}, { restart: "sometimes" }),
  () => chidori.receive([]),
  () => chidori.actors.send("", "x"),
  () => chidori.receive("anything"),
  () => chidori.actors.join("actor-42"),
];
run(async () => {
  const errors = [];
  for (const t of tries) { try { await t(); errors.push(null); } catch (e) { errors.push(e.message); } }
  const a = await chidori.actors.spawn("actors/leaf.js", {}, { name: "solo" });
  try { await chidori.actors.spawn("actors/leaf.js", {}, { name: "solo" }); } catch (e) { errors.push(e.message); }
  await a.join();
  try { await chidori.receive(["result", "other"], { timeoutMs: 60000 }); } catch (e) { errors.push(e.message); }
  return errors;
});
"""
STORM = """import { run, chidori } from "chidori:agent";
run(async () => {
  const pids = [];
  let refused = null;
  for (let i = 0; i < 130; i++) {
    // each joined before the next: the count is of spawns, settled ones included, and the tree's
    // live-run cap (CHIDORI_TREE_MAX_LIVE) is never what stops the storm, however slow the leaves
    let a;
    try { a = await chidori.actors.spawn("actors/leaf.js", {}); } catch (e) { refused = e.message; break; }
    pids.push(a.pid);
    await a.join();
  }
  return { spawned: pids.length, last: pids[pids.length - 1], refused };
});
"""
# crash resume: the run pauses (input) with an actor spawned, sent to, never joined
PAUSE = """import { run, chidori } from "chidori:agent";
run(async () => {
  const w = await chidori.actors.spawn("actors/adder.js", { base: 100 }, { name: "adder" });
  await w.send("add", { n: 5 });
  const answer = await chidori.input("go on?");
  await w.send("add", { n: 7 });
  await w.send("done", null);
  const o = await w.join();
  return { answer, pid: w.pid, outcome: o };
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


def project(files):
    d = tempfile.mkdtemp(prefix="chidori-actors-")
    os.makedirs(os.path.join(d, "actors"))
    for name, text in files.items():
        with open(os.path.join(d, name), "w") as f:
            f.write(text)
    return d


def records_of(state, rid):
    with open(os.path.join(state, "runs", rid, "records.jsonl")) as f:
        return [json.loads(line) for line in f]


def tree_files():
    return {"agent.js": TREE, "actors/supervisor.js": SUPERVISOR, "actors/worker.js": WORKER}


def case_actor_tree_replays_with_zero_live_effects(v):
    """A two-level tree: every record of an actor lies in its carved range (supervisors 10^12 wide,
    their workers 10^9 inside them), a supervisor's top-level records hang off the run's join of it,
    a worker's off its supervisor's join, each record before its container; the replay answers the
    tree from the log (the provider sees nothing more) and prints the same output."""
    d = project(tree_files())
    with tempfile.TemporaryDirectory() as state, fake_llm([{"text": "ok"}] * 4) as (base, requests):
        env = {"OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": base + "/v1"}
        code, out, err = chidori(v, "run", os.path.join(d, "agent.js"), env=env, state=state, timeout=120)
        assert code == 0, f"exit {code}\n{err[-3000:]}"
        got = json.loads(out)
        assert len(got) == 2, got
        for o, tasks in zip(got, ([1, 2], [3, 4])):
            assert o["status"] == "completed" and o["restarts"] == 0, o
            assert [r["n"] for r in o["output"]["results"]] == tasks, o
            assert all(r["reply"] == "ok" and r["square"] == r["n"] ** 2 for r in o["output"]["results"]), o
            assert [j["handled"] for j in o["output"]["joined"]] == [1, 1], o
        assert requests()["counts"]["openai"] == 4
        rid = run_id_of(err)
        recs = records_of(state, rid)
        order = {r["seq"]: i for i, r in enumerate(recs)}
        by_seq = {r["seq"]: r for r in recs}
        top = [r for r in recs if "parent_seq" not in r]
        assert [r["function"] for r in top] == ["log", "spawn_actor", "spawn_actor", "join_actor", "join_actor", "log"], top
        joins = [r for r in top if r["function"] == "join_actor"]
        assert joins[0]["seq"] == 4, joins  # the run's own seqs run on until the first merge
        for k, join in enumerate(joins):
            lo, hi = (k + 1) * 10**12 + 1, (k + 2) * 10**12 + 1
            # (the run's own records after the first merge take seqs past it: the original's counter rule)
            mine = [r for r in recs if lo <= r["seq"] < hi and "parent_seq" in r]
            assert mine and all(order[r["seq"]] < order[join["seq"]] for r in mine), "an actor record after its join"
            direct = [r for r in mine if r["parent_seq"] == join["seq"]]
            assert [r["function"] for r in direct][:2] == ["spawn_actor", "spawn_actor"], direct
            inner_joins = [r for r in direct if r["function"] == "join_actor"]
            assert len(inner_joins) == 2, direct
            for ij in inner_joins:
                leaf = [r for r in mine if r.get("parent_seq") == ij["seq"]]
                assert leaf and leaf[0]["function"] == "send_actor" and leaf[0]["args"]["to"] == "parent", leaf
                w = leaf[0]["seq"] - lo + 1
                assert w % 10**9 == 1 and 10**9 < w < 10**12, leaf[0]["seq"]  # a 10^9 block inside the 10^12 one
                assert any(r["function"] == "prompt" for r in leaf), leaf
            for r in mine:  # every record's parent is a record of the same tree or the run's join
                assert r["parent_seq"] == join["seq"] or r["parent_seq"] in by_seq, r
        assert recs[-1]["function"] == "log" and recs[-1]["seq"] > 10**12, recs[-1]  # past the merged ones
        code2, out2, err2 = chidori(v, "replay", os.path.join(d, "agent.js"), rid, env=env, state=state, timeout=120)
        assert code2 == 0 and out2 == out, f"replay: exit {code2}\n{out2}\n{err2[-3000:]}"
        assert "replay matched" in err2, err2
        assert requests()["counts"]["openai"] == 4, "the replay ran an actor live"


def case_actor_restarts_clean_and_resume(v):
    """An actor whose model call fails once is restarted by its supervisor: `clean` runs it again from
    nothing (its log call runs twice), `resume` replays its history with the failed call cut off (the
    log call is answered from its history, the prompt runs again). Both complete with restarts 1 and
    merge only the final attempt's history; `never` gives a failed outcome."""
    d = project({"agent.js": RESTARTS, "actors/asker.js": ASKER})
    for restart, logs in (("clean", 2), ("resume", 1)):
        with tempfile.TemporaryDirectory() as state, \
                fake_llm([{"status": 400, "body": "{\"error\":{\"message\":\"bad luck\"}}"}, {"text": "fine"}]) as (base, requests):
            env = {"OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": base + "/v1"}
            code, out, err = chidori(v, "run", os.path.join(d, "agent.js"), "--input", json.dumps({"restart": restart}),
                                     env=env, state=state, timeout=120)
            assert code == 0, f"{restart}: exit {code}\n{err[-3000:]}"
            got = json.loads(out)
            assert got == {"pid": "actor-1", "status": "completed", "output": {"tag": restart, "reply": "fine"},
                           "restarts": 1}, (restart, got)
            assert requests()["counts"]["openai"] == 2, restart
            assert err.count("asker begins " + restart) == logs, (restart, err[-2000:])
            recs = records_of(state, run_id_of(err))
            mine = [(r["seq"], r["function"], "error" in r) for r in recs if r["seq"] > 10**12]
            assert mine == [(10**12 + 1, "log", False), (10**12 + 2, "prompt", False)], (restart, mine)
            code2, out2, err2 = chidori(v, "replay", os.path.join(d, "agent.js"), run_id_of(err), env=env, state=state,
                                        timeout=120)
            assert code2 == 0 and out2 == out, f"{restart} replay: exit {code2}\n{err2[-3000:]}"
            assert requests()["counts"]["openai"] == 2
    with tempfile.TemporaryDirectory() as state, \
            fake_llm([{"status": 400, "body": "{\"error\":{\"message\":\"bad luck\"}}"}]) as (base, _):
        env = {"OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": base + "/v1"}
        code, out, err = chidori(v, "run", os.path.join(d, "agent.js"), "--input", json.dumps({"restart": "never"}),
                                 env=env, state=state, timeout=120)
        assert code == 0, f"never: exit {code}\n{err[-3000:]}"
        got = json.loads(out)
        assert got["status"] == "failed" and got["restarts"] == 0 and "bad luck" in got["error"], got


def case_actor_failure_tells_its_owner(v):
    """A failed actor (no restart) delivers __chidori.down__ {pid, name, status, error,
    pendingPrompt, restarts} from {kind: agent, id: pid} to the run, and its join says failed."""
    d = project({"agent.js": DOWN, "actors/throws.js": THROWS})
    with tempfile.TemporaryDirectory() as state:
        code, out, err = chidori(v, "run", os.path.join(d, "agent.js"), state=state, timeout=60)
        assert code == 0, f"exit {code}\n{err[-3000:]}"
        got = json.loads(out)
        msg, outcome = got["msg"], got["outcome"]
        assert msg["name"] == "__chidori.down__" and msg["from"] == {"kind": "agent", "id": "actor-1"}, msg
        p = msg["payload"]
        assert p["pid"] == "actor-1" and p["name"] == "doomed" and p["status"] == "failed", p
        assert "this actor broke" in p["error"] and p["pendingPrompt"] is None and p["restarts"] == 0, p
        assert outcome["status"] == "failed" and outcome["error"] == p["error"], outcome


def case_actor_join_stop_status_lookup(v):
    """status says waiting (with the names) while an actor blocks in receive; a join with timeoutMs
    answers running; lookup finds a registered name (null otherwise); stop settles it stopped and a
    second join answers the same; a send to it then says delivered false; an unknown pid's status is
    unknown; a supervisor's child can be joined by the supervisor only (the original's text); an actor
    idle past idleTimeoutMs parks as paused and its owner hears __chidori.down__. The replay is equal."""
    d = project({"agent.js": LIFECYCLE, "actors/echo.js": ECHO, "actors/mid.js": MID, "actors/leaf.js": LEAF})
    with tempfile.TemporaryDirectory() as state:
        code, out, err = chidori(v, "run", os.path.join(d, "agent.js"), state=state, timeout=90)
        assert code == 0, f"exit {code}\n{err[-3000:]}"
        g = json.loads(out)
        assert g["pong"] == {"k": 1} and g["from"] == {"kind": "agent", "id": "actor-1"}, g
        assert g["waiting"] == {"pid": "actor-1", "status": "waiting", "restarts": 0, "mailbox": 0,
                                "waitingFor": ["never-sent"]}, g["waiting"]
        assert g["found"] == "actor-1" and g["missing"] is None, g
        assert g["stopped"] == {"pid": "actor-1", "status": "stopped", "restarts": 0}, g["stopped"]
        assert g["again"] == g["stopped"], g
        assert g["after"]["status"] == "stopped" and g["late"] == {"delivered": False}, g
        assert g["unknown"] == {"pid": "actor-77", "status": "unknown"}, g
        assert g["refused"] == ("chidori.actors.join: `actor-3` was spawned by actor-2, not the run — actors are "
                                "settled by their spawner"), g["refused"]
        assert g["midOut"]["status"] == "completed", g["midOut"]
        assert g["midOut"]["output"] == {"child": "completed", "childOutput": "leaf done"}, g["midOut"]
        assert g["down"]["status"] == "paused" and g["down"]["pendingPrompt"] == "waiting on signal: ping", g["down"]
        assert g["idleOut"]["status"] == "paused" and g["idleOut"]["pendingPrompt"] == "waiting on signal: ping", g
        rid = run_id_of(err)
        recs = records_of(state, rid)
        fns = {r["function"] for r in recs}
        assert {"spawn_actor", "send_actor", "receive", "join_actor", "stop_actor", "actor_status", "whereis"} <= fns
        stop = next(r for r in recs if r["function"] == "stop_actor")
        assert stop["args"] == {"opts": {"timeoutMs": None}, "pid": "actor-1"}, stop
        code2, out2, err2 = chidori(v, "replay", os.path.join(d, "agent.js"), rid, state=state, timeout=90)
        assert code2 == 0 and out2 == out, f"replay: exit {code2}\n{err2[-3000:]}"


def case_actor_errors(v):
    """The original's texts. Refused before a seq is taken (nothing recorded): a spawn without a
    source, with a missing one, with a reserved name, with an unknown restart strategy, a receive of
    no names, a send to no one. Failed calls (recorded): a receive that would block forever, a join
    of an unknown actor, a name registered twice, a receive with a timeout once every actor settled;
    the 129th spawn of a run."""
    d = project({"agent.js": ERRORS, "actors/leaf.js": LEAF, "storm.js": STORM})
    with tempfile.TemporaryDirectory() as state:
        code, out, err = chidori(v, "run", os.path.join(d, "agent.js"), state=state, timeout=60)
        assert code == 0, f"exit {code}\n{err[-3000:]}"
        errs = json.loads(out)
        assert errs == [
            "chidori.actors.spawn requires a source module path",
            "chidori.actors.spawn: source module not found: actors/missing.js",
            "chidori.actors.spawn: `parent` is not a registrable actor name (reserved)",
            "chidori.actors.spawn: `actor-3` is not a registrable actor name (reserved)",
            "chidori.actors.spawn: unknown restart strategy `sometimes` (expected \"never\", \"clean\", or \"resume\")",
            "chidori.receive requires a name or an array of names",
            "chidori.actors.send requires a target (a pid, a registered name, or \"parent\")",
            "chidori.receive would block forever: no live actors to send a message and no timeoutMs given",
            "unknown actor `actor-42` (no live actor and no recorded spawn)",
            "chidori.actors.spawn: actor name `solo` is already registered",
            "chidori.receive([result, other]) can no longer be delivered to: every spawned actor has settled and no "
            "matching message is queued. Listen for \"__chidori.down__\" alongside your result names to observe "
            "actor failures, or join the actors for their outcomes.",
        ], errs
        recs = records_of(state, run_id_of(err))
        top = [(r["seq"], r["function"], "error" in r) for r in recs if "parent_seq" not in r]
        assert top == [(1, "receive", True), (2, "join_actor", True), (3, "spawn_actor", False),
                       (4, "spawn_actor", True), (5, "join_actor", False), (10**12 + 2, "receive", True)], top
        code, out, err = chidori(v, "run", "--no-isolate", os.path.join(d, "storm.js"), state=state, timeout=120)
        assert code == 0, f"storm: exit {code}\n{err[-3000:]}"
        got = json.loads(out)
        assert got == {"spawned": 128, "last": "actor-128",
                       "refused": "chidori.actors.spawn: a run may spawn at most 128 actors (restarted children count)"}, got


def case_actor_recreated_after_resume(v):
    """A run pauses on input() with an actor spawned and sent to but never joined: its records are
    discarded. The resume replays the spawn and the send (nothing starts); the first live call naming
    the actor starts it again under a new pid aliased to the recorded one, its mailbox refilled from
    the recorded sends, so it sees every message once; its join merges the new actor's records."""
    d = project({"agent.js": PAUSE, "actors/adder.js": ADDER})
    with tempfile.TemporaryDirectory() as state:
        code, out, err = chidori(v, "run", os.path.join(d, "agent.js"), state=state, timeout=60)
        assert code == 3, f"exit {code}\n{err[-3000:]}"
        rid = run_id_of(err)
        assert all(r["seq"] < 10**12 for r in records_of(state, rid)), "an unjoined actor's records were kept"
        code, out, err = chidori(v, "resume", os.path.join(d, "agent.js"), rid, "--response", "yes", state=state,
                                 timeout=60)
        assert code == 0, f"resume: exit {code}\n{err[-3000:]}"
        got = json.loads(out)
        assert got["answer"] == "yes" and got["pid"] == "actor-1", got
        assert got["outcome"]["status"] == "completed" and got["outcome"]["output"] == 112, got
        assert got["outcome"]["pid"] == "actor-2", got  # the new pid, aliased to the recorded one
        recs = records_of(state, rid)
        merged = [r for r in recs if r["seq"] > 10**12]
        assert [r["function"] for r in merged] == ["receive", "receive", "receive"], merged
        assert [r["result"]["name"] for r in merged] == ["add", "add", "done"], merged


def case_actors_isolated_and_in_process_agree(v):
    """The same tree, isolated (a worker per actor iteration) and in this process, with the same
    captured seed: the same output (each worker's Math.random included: an actor's seed comes from its
    spawn's seq, not from how the supervisors interleave) and the same top-level records."""
    d = project(tree_files())
    outs, shapes = [], []
    for mode in ("--isolate", "--no-isolate"):
        with tempfile.TemporaryDirectory() as state, fake_llm([{"text": "ok"}] * 4) as (base, _):
            env = {"OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": base + "/v1", "CHIDORI_SEED": "4242",
                   "CHIDORI_CLOCK_START_MS": "1700000000000"}
            code, out, err = chidori(v, "run", mode, os.path.join(d, "agent.js"), env=env, state=state, timeout=120)
            assert code == 0, f"{mode}: exit {code}\n{err[-3000:]}"
            outs.append(out)
            shapes.append([(r["seq"], r["function"]) for r in records_of(state, run_id_of(err)) if "parent_seq" not in r])
    assert outs[0] == outs[1], f"isolated:\n{outs[0]}\nin-process:\n{outs[1]}"
    assert shapes[0] == shapes[1], shapes


SPIN = """import { run } from "chidori:agent";
run(async () => { for (;;) {} });
"""
LEAVES = """import { run, chidori } from "chidori:agent";
run(async () => {
  const a = await chidori.actors.spawn("actors/spin.js", {});
  const stopped = await a.stop();
  await chidori.actors.spawn("actors/spin.js", {}); // never joined: stopped when the run ends
  return stopped;
});
"""


def case_actor_busy_loop_is_stopped(v):
    """An actor spinning in JavaScript (no host call to end it at) is stopped by `stop` and, never
    joined, when the run ends: in-process its engine halts at its next interrupt poll, isolated its
    worker is killed. Neither waits for the (here 10-minute) deadline, with no CPU budget; the
    unjoined one leaves no record."""
    d = project({"agent.js": LEAVES, "actors/spin.js": SPIN})
    for mode in ("--isolate", "--no-isolate"):
        with tempfile.TemporaryDirectory() as state:
            env = {"CHIDORI_JS_DEADLINE_MS": "600000", "CHIDORI_JS_OP_BUDGET": "0"}  # nothing else ends it
            code, out, err = chidori(v, "run", mode, os.path.join(d, "agent.js"), env=env, state=state, timeout=60)
            assert code == 0, f"{mode}: exit {code}\n{err[-3000:]}"
            assert json.loads(out) == {"pid": "actor-1", "status": "stopped", "restarts": 0}, (mode, out)
            recs = records_of(state, run_id_of(err))
            assert [r["function"] for r in recs] == ["spawn_actor", "stop_actor", "spawn_actor"], (mode, recs)
