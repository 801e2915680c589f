"""tests/cases_tree_members.py — branches and actors draw on the run's one tree budget
(src/runner/tree_budget.c, wired into the member primitive by src/runner/member_run.c; the effects
src/host/effects/branch.c and actors.c end the run when the tree ends). A fan-out of busy branches
ends at the tree's CPU budget or deadline; a spawn storm of actors, or a chain of actors spawning
actors, ends at the live-members or depth cap; memory is summed over the members alive together;
an isolated branch spinning in C is stopped by the supervisor's backstop at its share. The whole
tree ends with a message naming the limit and its setting, the call that saw it is recorded with
`ends_run`, and a replay ends the same way with no live effect. In-process and isolated.

Bounds are generous (Variant.slow); the assertions are on content.
"""
import json
import os
import tempfile
import time

from cases import chidori
from cases_effects import run_id_of

MODES = ("--no-isolate", "--isolate")

SPIN = """import { run } from "chidori:agent";
run(async () => { for (;;) {} });
"""
BUSY = """import { run } from "chidori:agent";
run(async (input) => { let x = 0; for (let i = 0; i < 2e6; i++) x += i; return { x }; });
"""
# Every branch's failure is an outcome the root could inspect: a tree limit must end the run instead.
FAN = """import { run, chidori } from "chidori:agent";
run(async (input) => {
  let outcomes;
  try {
    outcomes = await chidori.branch(input.sources.map((source) => ({ source })), { concurrency: input.sources.length });
  } catch (e) { return { caught: String(e).slice(0, 300) }; }
  return { outcomes: outcomes.map((o) => o.status) };
});
"""
# The run spawns actors that stay alive, one after the other, then waits for them.
STORM = """import { run, chidori } from "chidori:agent";
run(async (input) => {
  const pids = [];
  try {
    for (let i = 0; i < input.n; i++) pids.push(await chidori.actors.spawn("idle.js", { i }));
    for (const p of pids) await p.send("go", null);
    for (const p of pids) await p.join();
  } catch (e) { return { caught: String(e).slice(0, 300), spawned: pids.length }; }
  return { spawned: pids.length };
});
"""
IDLE = """import { run, chidori } from "chidori:agent";
run(async (input) => { await chidori.receive("go", { timeoutMs: 30000 }); return { i: input.i }; });
"""
# Actors spawning actors: each spawns two children and waits for them, to `levels` below the run.
TREE = """import { run, chidori } from "chidori:agent";
run(async (input) => {
  try {
    const a = await chidori.actors.spawn("node.js", { d: 1, levels: input.levels });
    return { joined: (await a.join()).status };
  } catch (e) { return { caught: String(e).slice(0, 300) }; }
});
"""
NODE = """import { run, chidori } from "chidori:agent";
run(async (input) => {
  if (input.d >= input.levels) return { d: input.d };
  const kids = [];
  for (let k = 0; k < 2; k++) kids.push(await chidori.actors.spawn("node.js", { d: input.d + 1, levels: input.levels }));
  const got = [];
  for (const c of kids) got.push((await c.join()).status);
  return { d: input.d, got };
});
"""
# Actors that each hold about 60 MiB and stay alive together: each alone is far below the ceiling.
HOLD = """import { run, chidori } from "chidori:agent";
run(async (input) => {
  globalThis.keep = []; for (let i = 0; i < 200000; i++) keep.push("y".repeat(200) + i);
  await chidori.log("holding " + input.i);
  for (let k = 0; k < 100; k++) { await chidori.receive("go", { timeoutMs: 100 }); await chidori.log("still " + k); }
  return { i: input.i, n: keep.length };
});
"""
HOLDERS = """import { run, chidori } from "chidori:agent";
run(async (input) => {
  try {
    const pids = [];
    for (let i = 0; i < input.n; i++) pids.push(await chidori.actors.spawn("hold.js", { i }));
    const out = [];
    for (const p of pids) out.push((await p.join()).status);
    return { out };
  } catch (e) { return { caught: String(e).slice(0, 300) }; }
});
"""


def folder_with(d, files):
    for name, text in files.items():
        with open(os.path.join(d, name), "w") as f:
            f.write(text)


def records_of(state, run_id):
    with open(os.path.join(state, "runs", run_id, "records.jsonl")) as f:
        return [json.loads(line) for line in f if line.strip()]


# where an actor tree's end is seen by the run: most often its join, but live scheduling decides
ACTOR_OPS = ("spawn_actor", "send_actor", "receive", "join_actor", "stop_actor", "actor_status", "whereis")


def ends_the_same_on_replay(v, d, entry, state, err, env, text, function):
    """The run's log holds one `function` record with ends_run naming the limit; its replay ends with
    the same message and makes no live call."""
    run_id = run_id_of(err)
    recs = records_of(state, run_id)
    ended = [r for r in recs if r.get("ends_run")]
    functions = ACTOR_OPS if function == "actor" else (function,)
    assert len(ended) == 1 and ended[0].get("function") in functions and text in ended[0].get("error", ""), \
        (function, text, [(r.get("function"), r.get("error")) for r in recs][-5:])
    code2, out2, err2 = chidori(v, "replay", os.path.join(d, entry), run_id, env=env, state=state, timeout=90)
    assert code2 == 1 and text in err2 and "caught" not in out2, (code2, out2, err2[-2000:])
    assert f"replay matched {len(recs)} record" in err2, err2[-2000:]


def case_tree_members_a_fan_out_of_busy_branches_ends_at_the_tree_budget(v):
    """Four branches spinning in JS share the root's 100M ticks (before, each had 100M of its own,
    failed alone, and the root completed with four failed outcomes)."""
    for mode in MODES:
        with tempfile.TemporaryDirectory() as d, tempfile.TemporaryDirectory() as state:
            folder_with(d, {"fan.js": FAN, "spin.js": SPIN})
            env = {"CHIDORI_JS_OP_BUDGET": "100000000", "CHIDORI_WORKSPACE_ROOT": d}
            start = time.monotonic()
            code, out, err = chidori(v, "run", mode, os.path.join(d, "fan.js"), "--input",
                                     json.dumps({"sources": ["spin.js"] * 4}), env=env, state=state, timeout=90)
            secs = time.monotonic() - start
            assert code == 1 and "caught" not in out and "outcomes" not in out, (mode, code, out, err[-2000:])
            assert "chidori.branch: CPU budget exhausted: the agent tree" in err and \
                "100000000 ticks (CHIDORI_JS_OP_BUDGET" in err and "spin.js" in err, (mode, err[-2000:])
            assert secs < 40 * v.slow, f"{mode}: {secs:.1f} s"
            ends_the_same_on_replay(v, d, "fan.js", state, err, env, "CPU budget exhausted: the agent tree", "branch")


def case_tree_members_a_fan_out_of_busy_branches_ends_at_the_tree_deadline(v):
    for mode in MODES:
        with tempfile.TemporaryDirectory() as d, tempfile.TemporaryDirectory() as state:
            folder_with(d, {"fan.js": FAN, "spin.js": SPIN})
            env = {"CHIDORI_JS_OP_BUDGET": "0", "CHIDORI_JS_DEADLINE_MS": "1500", "CHIDORI_WORKSPACE_ROOT": d}
            start = time.monotonic()
            code, out, err = chidori(v, "run", mode, os.path.join(d, "fan.js"), "--input",
                                     json.dumps({"sources": ["spin.js"] * 3}), env=env, state=state, timeout=90)
            secs = time.monotonic() - start
            assert code == 1 and "caught" not in out and "outcomes" not in out, (mode, code, out, err[-2000:])
            assert "wall-clock deadline exceeded: the agent tree passed 1500 ms" in err and \
                "CHIDORI_JS_DEADLINE_MS" in err, (mode, err[-2000:])
            assert secs < 1.5 + 1 + 15 * v.slow, f"{mode}: {secs:.1f} s"
            ends_the_same_on_replay(v, d, "fan.js", state, err, env, "wall-clock deadline exceeded", "branch")


def case_tree_members_a_branch_looping_in_c_is_stopped_by_the_backstop(v):
    """Isolated branches whose workers spin in C and never poll (test-only nested_hang_spin): the
    supervisor stops each at the CPU time of its share of the tree's budget, and the tree ends
    (before, each had the run's whole budget, failed alone, and the root completed)."""
    with tempfile.TemporaryDirectory() as d, tempfile.TemporaryDirectory() as state:
        folder_with(d, {"fan.js": FAN, "busy.js": BUSY})
        env = {"CHIDORI_JS_OP_BUDGET": "20000000", "CHIDORI_WORKSPACE_ROOT": d,
               "CHIDORI_ISOLATE_SELFTEST": "nested_hang_spin"}
        start = time.monotonic()
        code, out, err = chidori(v, "run", "--isolate", os.path.join(d, "fan.js"), "--input",
                                 json.dumps({"sources": ["busy.js"] * 2}), env=env, state=state, timeout=120)
        secs = time.monotonic() - start
        assert code == 1 and "caught" not in out and "outcomes" not in out, (code, out, err[-2000:])
        assert "CPU budget exhausted: the agent tree" in err and \
            ("supervisor stopped it" in err or "longer than its CPU budget allows" in err), err[-2000:]
        assert secs < 60 * v.slow, f"{secs:.1f} s"
        ends_the_same_on_replay(v, d, "fan.js", state, err, env, "CPU budget exhausted: the agent tree", "branch")


def case_tree_members_an_actor_spawn_storm_ends_at_the_live_cap(v):
    """The run spawns 40 actors that stay alive; the tree allows 6 runs at once, the root included
    (before, all 40 ran and the root completed)."""
    for mode in MODES:
        with tempfile.TemporaryDirectory() as d, tempfile.TemporaryDirectory() as state:
            folder_with(d, {"storm.js": STORM, "idle.js": IDLE})
            env = {"CHIDORI_TREE_MAX_LIVE": "6", "CHIDORI_WORKSPACE_ROOT": d}
            code, out, err = chidori(v, "run", mode, os.path.join(d, "storm.js"), "--input", json.dumps({"n": 40}),
                                     env=env, state=state, timeout=120)
            assert code == 1 and "caught" not in out and "spawned" not in out, (mode, code, out, err[-2000:])
            assert "chidori.actors: agent tree live-run cap reached" in err and "CHIDORI_TREE_MAX_LIVE=6" in err, \
                (mode, err[-2000:])
            run_id = run_id_of(err)
            spawned = [r for r in records_of(state, run_id) if r.get("function") == "spawn_actor" and "error" not in r]
            assert 5 <= len(spawned) <= 40, (mode, len(spawned))  # the refusals come from supervisor threads
            ended = [r for r in records_of(state, run_id) if r.get("ends_run")]
            assert len(ended) == 1, (mode, ended)
            ends_the_same_on_replay(v, d, "storm.js", state, err, env, "CHIDORI_TREE_MAX_LIVE=6", "actor")


def case_tree_members_actors_spawning_actors_end_at_the_depth_cap(v):
    """Each actor spawns two more, four levels deep; the tree allows two levels below the root
    (before, the whole tree of 15 actors ran and the root completed)."""
    for mode in MODES:
        with tempfile.TemporaryDirectory() as d, tempfile.TemporaryDirectory() as state:
            folder_with(d, {"tree.js": TREE, "node.js": NODE})
            env = {"CHIDORI_TREE_MAX_DEPTH": "2", "CHIDORI_WORKSPACE_ROOT": d}
            code, out, err = chidori(v, "run", mode, os.path.join(d, "tree.js"), "--input",
                                     json.dumps({"levels": 4}), env=env, state=state, timeout=120)
            assert code == 1 and "caught" not in out and "joined" not in out, (mode, code, out, err[-2000:])
            assert "chidori.actors: agent tree depth cap reached: a run 3 levels below the root" in err and \
                "CHIDORI_TREE_MAX_DEPTH=2" in err, (mode, err[-2000:])
            ends_the_same_on_replay(v, d, "tree.js", state, err, env, "CHIDORI_TREE_MAX_DEPTH=2", "actor")


def case_tree_members_memory_is_summed_over_concurrent_actors(v):
    """Three actors each hold about 60 MiB at once under a 128 MiB ceiling: each alone fits, their
    sum does not (before, each had 128 MiB of its own and the root completed)."""
    for mode in MODES:
        with tempfile.TemporaryDirectory() as d, tempfile.TemporaryDirectory() as state:
            folder_with(d, {"holders.js": HOLDERS, "hold.js": HOLD})
            env = {"CHIDORI_JS_MEM_CAP_MB": "128", "CHIDORI_WORKSPACE_ROOT": d}
            code, out, err = chidori(v, "run", mode, os.path.join(d, "holders.js"), "--input", json.dumps({"n": 3}),
                                     env=env, state=state, timeout=120)
            assert code == 1 and "caught" not in out and '"out"' not in out, (mode, code, out, err[-2000:])
            assert "memory ceiling reached: the agent tree's live runs needed more than 128 MiB" in err and \
                "CHIDORI_JS_MEM_CAP_MB" in err, (mode, err[-2000:])
            ends_the_same_on_replay(v, d, "holders.js", state, err, env, "memory ceiling reached", "actor")


def case_tree_members_a_branch_within_the_budget_records_what_it_spent(v):
    """Busy branches that fit: the branch record says what they spent (tree_ticks), and a replay
    charges it again and completes with the same output."""
    for mode in MODES:
        with tempfile.TemporaryDirectory() as d, tempfile.TemporaryDirectory() as state:
            folder_with(d, {"fan.js": FAN, "busy.js": BUSY})
            env = {"CHIDORI_JS_OP_BUDGET": "200000000", "CHIDORI_WORKSPACE_ROOT": d}
            code, out, err = chidori(v, "run", mode, os.path.join(d, "fan.js"), "--input",
                                     json.dumps({"sources": ["busy.js"] * 3}), env=env, state=state, timeout=90)
            assert code == 0 and json.loads(out) == {"outcomes": ["completed"] * 3}, (mode, code, out, err[-2000:])
            run_id = run_id_of(err)
            rec = [r for r in records_of(state, run_id) if r.get("function") == "branch"]
            assert len(rec) == 1 and rec[0].get("tree_ticks", 0) >= 3 * 2000000, (mode, rec)
            code2, out2, err2 = chidori(v, "replay", os.path.join(d, "fan.js"), run_id, env=env, state=state,
                                        timeout=90)
            assert code2 == 0 and json.loads(out2) == json.loads(out), (mode, out2, err2[-2000:])


# A branch that calls nested agents in a loop, each failure caught.
CALLER = """import { run, chidori } from "chidori:agent";
run(async () => {
  let n = 0;
  for (;;) { try { await chidori.callAgent("busy.js", { n }); } catch (e) {} n++; }
});
"""


def case_tree_members_nested_agents_inside_branches_draw_on_the_tree(v):
    """Two branches each loop over callAgent: their nested agents are members below them (a chain
    of the branch's own) and share the tree's 60M ticks with them (before, the loops ran until the
    nested-run cap, each child with a fresh budget)."""
    for mode in MODES:
        with tempfile.TemporaryDirectory() as d, tempfile.TemporaryDirectory() as state:
            folder_with(d, {"fan.js": FAN, "caller.js": CALLER, "busy.js": BUSY})
            env = {"CHIDORI_JS_OP_BUDGET": "60000000", "CHIDORI_WORKSPACE_ROOT": d}
            code, out, err = chidori(v, "run", mode, os.path.join(d, "fan.js"), "--input",
                                     json.dumps({"sources": ["caller.js"] * 2}), env=env, state=state, timeout=120)
            assert code == 1 and "caught" not in out and "outcomes" not in out, (mode, code, out, err[-2000:])
            assert "chidori.branch: CPU budget exhausted: the agent tree" in err and \
                "60000000 ticks (CHIDORI_JS_OP_BUDGET" in err, (mode, err[-2000:])
            ends_the_same_on_replay(v, d, "fan.js", state, err, env, "CPU budget exhausted: the agent tree", "branch")
