"""tests/cases_tree_budget.py — one budget for a tree of runs (src/runner/tree_budget.c, wired into
chidori.callAgent by src/runner/runner.c): nested agents draw on the root run's CPU budget, memory
ceiling (summed over the runs alive at once) and wall-clock deadline, under a cap on depth
(CHIDORI_TREE_MAX_DEPTH) and on live runs (CHIDORI_TREE_MAX_LIVE). Crossing any ends the whole
tree, uncatchably, with a message naming the limit and its setting; a replay ends the same way.
Each case runs in-process and isolated (docs/limits.md, "One budget for a tree of runs").

Bounds are generous (Variant.slow); the assertions are on content: the message, the exit code,
and how many children completed.
"""
import json
import os
import re
import tempfile
import time

from cases import chidori
from cases_effects import run_id_of

MODES = ("--no-isolate", "--isolate")

LOOP = """import { run } from "chidori:agent";
run(async (input, chidori) => {
  let n = 0;
  for (;;) { await chidori.callAgent("busy.js", { n }); n++; }
});
"""
# About 4 million ticks of work per child.
BUSY = """import { run } from "chidori:agent";
run(async (input, chidori) => { let x = 0; for (let i = 0; i < 2e6; i++) x += i; return { n: input.n, x }; });
"""
SPIN = """import { run } from "chidori:agent";
run(async (input, chidori) => { for (;;) {} });
"""
# Busy children one after the other, each failure caught: a tree limit must not be catchable.
FAN = """import { run } from "chidori:agent";
run(async (input, chidori) => {
  const caught = [];
  let w = 0; for (let i = 0; i < 100000; i++) w += i; // the root's own work counts too
  for (const child of input.children) {
    try { await chidori.callAgent(child, {}); } catch (e) { caught.push(String(e).slice(0, 200)); }
  }
  return { caught };
});
"""
MEMCHILD = """import { run } from "chidori:agent";
run(async (input, chidori) => { const a = []; for (;;) a.push("x".repeat(1000) + a.length); });
"""
# The root holds about 60 MiB while its child allocates: their sum meets the ceiling.
MEMROOT = """import { run } from "chidori:agent";
run(async (input, chidori) => {
  globalThis.keep = []; for (let i = 0; i < 200000; i++) keep.push("y".repeat(200) + i);
  try { await chidori.callAgent("memchild.js", {}); } catch (e) { return { caught: String(e) }; }
  return "done";
});
"""
DEEP = """import { run } from "chidori:agent";
run(async (input, chidori) => {
  try { return await chidori.callAgent("deep.js", { d: (input.d || 0) + 1 }); }
  catch (e) { return { caught: String(e).slice(0, 200), d: input.d || 0 }; }
});
"""


def folder_with(d, files):
    for name, text in files.items():
        with open(os.path.join(d, name), "w") as f:
            f.write(text)


def records_of(state, run_id):
    with open(os.path.join(state, "runs", run_id, "records.jsonl")) as f:
        return [json.loads(line) for line in f if line.strip()]


def case_tree_budget_a_call_agent_loop_ends_at_the_tree_budget(v):
    """A loop of callAgent over busy children: the children share the root's 50M ticks, so the tree
    ends after about a dozen of them (it ran 64 fresh budgets, up to CHIDORI_MAX_NESTED_RUNS,
    before); the replay stops at the same call."""
    for mode in MODES:
        with tempfile.TemporaryDirectory() as d, tempfile.TemporaryDirectory() as state:
            folder_with(d, {"loop.js": LOOP, "busy.js": BUSY})
            env = {"CHIDORI_JS_OP_BUDGET": "50000000", "CHIDORI_WORKSPACE_ROOT": d}
            start = time.monotonic()
            code, out, err = chidori(v, "run", mode, os.path.join(d, "loop.js"), env=env, state=state, timeout=60)
            secs = time.monotonic() - start
            assert code == 1, (mode, code, err[-2000:])
            assert "CPU budget exhausted: the agent tree" in err and "CHIDORI_JS_OP_BUDGET" in err, (mode, err[-2000:])
            assert "nested agent runs" not in err, (mode, err[-2000:])
            assert secs < 40 * v.slow, f"{mode}: {secs:.1f} s"
            run_id = run_id_of(err)
            recs = records_of(state, run_id)
            done = [r for r in recs if r.get("function") == "call_agent" and "error" not in r]
            ended = [r for r in recs if r.get("function") == "call_agent" and r.get("ends_run")]
            assert 6 <= len(done) <= 14, (mode, len(done))  # 50M / ~4M ticks each
            assert all(r.get("tree_ticks", 0) >= 2000000 for r in done), (mode, done[:2])
            assert len(ended) == 1 and "the agent tree" in ended[0]["error"], (mode, ended)
            code2, out2, err2 = chidori(v, "replay", os.path.join(d, "loop.js"), run_id, env=env, state=state,
                                        timeout=60)
            assert code2 == 1 and "CPU budget exhausted: the agent tree" in err2, (mode, err2[-2000:])
            assert f"replay matched {len(recs)} records" in err2, (mode, err2[-2000:])


def case_tree_budget_a_fan_out_of_spinning_children_ends_the_tree(v):
    """Children that spin in JS, each call in a try/catch: the first one that runs out ends the whole
    tree (before, each had a fresh budget and its failure was caught, so the root completed)."""
    for mode in MODES:
        with tempfile.TemporaryDirectory() as d:
            folder_with(d, {"fan.js": FAN, "spin.js": SPIN})
            start = time.monotonic()
            code, out, err = chidori(v, "run", mode, os.path.join(d, "fan.js"), "--input",
                                     json.dumps({"children": ["spin.js"] * 4}),
                                     env={"CHIDORI_JS_OP_BUDGET": "100000000", "CHIDORI_WORKSPACE_ROOT": d},
                                     timeout=60)
            secs = time.monotonic() - start
            assert code == 1 and "caught" not in out, (mode, code, out, err[-2000:])
            assert "CPU budget exhausted: the agent tree" in err and "nested agent spin.js ran out" in err, \
                (mode, err[-2000:])
            # the child was granted what the root left of the tree's budget, not a budget of its own
            share = re.search(r"spin.js ran out: CPU budget exhausted: the run used its (\d+) ticks", err)
            assert share and int(share.group(1)) < 100000000, (mode, err[-2000:])
            assert secs < 30 * v.slow, f"{mode}: {secs:.1f} s"


def case_tree_budget_a_child_looping_in_c_is_stopped_by_the_backstop(v):
    """An isolated child whose worker spins in C and never polls (test-only nested_hang_spin): the
    supervisor stops it at the CPU time of what was left of the tree's budget, or at the tree's
    deadline, and the whole tree ends. (In-process runs have no backstop: docs/limits.md.)"""
    with tempfile.TemporaryDirectory() as d:
        folder_with(d, {"fan.js": FAN, "busy.js": BUSY})
        args = ("run", "--isolate", os.path.join(d, "fan.js"), "--input", json.dumps({"children": ["busy.js"] * 3}))
        start = time.monotonic()
        code, out, err = chidori(v, *args, env={"CHIDORI_JS_OP_BUDGET": "5000000", "CHIDORI_WORKSPACE_ROOT": d,
                                                "CHIDORI_ISOLATE_SELFTEST": "nested_hang_spin"}, timeout=90)
        secs = time.monotonic() - start
        assert code == 1 and "caught" not in out, (code, out, err[-2000:])
        # stopped at the CPU time of its grant, or (on a machine too loaded to give it that much CPU
        # time) when it stayed quiet for longer than its grant could last: the parent either way
        assert "CPU budget exhausted: the agent tree" in err and \
            ("supervisor stopped it" in err or "longer than its CPU budget allows" in err), err[-2000:]
        assert secs < 45 * v.slow, f"{secs:.1f} s"
        start = time.monotonic()
        code, out, err = chidori(v, *args, env={"CHIDORI_JS_OP_BUDGET": "0", "CHIDORI_JS_DEADLINE_MS": "1500",
                                                "CHIDORI_WORKSPACE_ROOT": d,
                                                "CHIDORI_ISOLATE_SELFTEST": "nested_hang_spin"}, timeout=90)
        secs = time.monotonic() - start
        assert code == 1 and "caught" not in out, (code, out, err[-2000:])
        assert "wall-clock deadline exceeded: the agent tree passed 1500 ms" in err, err[-2000:]
        assert "supervisor stopped it" in err, err[-2000:]
        assert secs < 1.5 + 1 + 10 * v.slow, f"{secs:.1f} s"


def case_tree_budget_one_deadline_for_the_tree(v):
    for mode in MODES:
        with tempfile.TemporaryDirectory() as d:
            folder_with(d, {"fan.js": FAN, "spin.js": SPIN})
            start = time.monotonic()
            code, out, err = chidori(v, "run", mode, os.path.join(d, "fan.js"), "--input",
                                     json.dumps({"children": ["spin.js"] * 4}),
                                     env={"CHIDORI_JS_OP_BUDGET": "0", "CHIDORI_JS_DEADLINE_MS": "1500",
                                          "CHIDORI_WORKSPACE_ROOT": d}, timeout=60)
            secs = time.monotonic() - start
            assert code == 1 and "caught" not in out, (mode, code, out, err[-2000:])
            assert "wall-clock deadline exceeded: the agent tree passed 1500 ms" in err and \
                "CHIDORI_JS_DEADLINE_MS" in err, (mode, err[-2000:])
            left = re.search(r"spin.js ran out: wall-clock deadline exceeded: the run passed (\d+) ms", err)
            assert left and int(left.group(1)) < 1500, (mode, err[-2000:])  # what was left of the tree's
            assert secs < 1.5 + 1 + 10 * v.slow, f"{mode}: {secs:.1f} s"


def case_tree_budget_memory_is_summed_over_live_runs(v):
    """The root holds ~60 MiB while its child allocates: the child gets what is left of 256 MiB, and
    meeting it ends the tree (before, the child had 256 MiB of its own and its failure was caught)."""
    for mode in MODES:
        with tempfile.TemporaryDirectory() as d:
            folder_with(d, {"memroot.js": MEMROOT, "memchild.js": MEMCHILD})
            code, out, err = chidori(v, "run", mode, os.path.join(d, "memroot.js"),
                                     env={"CHIDORI_JS_MEM_CAP_MB": "256", "CHIDORI_WORKSPACE_ROOT": d}, timeout=90)
            assert code == 1 and "caught" not in out, (mode, code, out, err[-2000:])
            assert "memory ceiling reached: the agent tree's live runs needed more than 256 MiB" in err and \
                "CHIDORI_JS_MEM_CAP_MB" in err, (mode, err[-2000:])
            left = re.search(r"memchild.js ran out: memory ceiling reached: the run needed more than (\d+) MiB", err)
            assert left and int(left.group(1)) < 240, (mode, err[-2000:])  # 256 less what the root holds


def case_tree_budget_depth_and_live_caps_end_the_tree(v):
    for mode in MODES:
        for env, text in (({"CHIDORI_TREE_MAX_DEPTH": "3"}, "CHIDORI_TREE_MAX_DEPTH=3"),
                          ({"CHIDORI_TREE_MAX_LIVE": "3"}, "CHIDORI_TREE_MAX_LIVE=3")):
            with tempfile.TemporaryDirectory() as d, tempfile.TemporaryDirectory() as state:
                folder_with(d, {"deep.js": DEEP})
                env = dict(env, CHIDORI_WORKSPACE_ROOT=d)
                code, out, err = chidori(v, "run", mode, os.path.join(d, "deep.js"), env=env, state=state, timeout=60)
                assert code == 1 and "caught" not in out and text in err, (mode, env, code, out, err[-2000:])
                assert "agent tree" in err, (mode, err[-2000:])
                # the replay ends the same way, with no live effect
                code2, out2, err2 = chidori(v, "replay", os.path.join(d, "deep.js"), run_id_of(err), env=env,
                                            state=state, timeout=60)
                assert code2 == 1 and text in err2, (mode, env, err2[-2000:])


def case_tree_budget_settings_are_checked(v):
    for name, bad in (("CHIDORI_TREE_MAX_DEPTH", "9"), ("CHIDORI_TREE_MAX_LIVE", "0"), ("CHIDORI_TREE_MAX_LIVE", "x")):
        with tempfile.TemporaryDirectory() as d:
            folder_with(d, {"deep.js": DEEP})
            code, out, err = chidori(v, "run", os.path.join(d, "deep.js"), env={name: bad})
            assert code == 2 and name in err, (name, bad, code, err[-1000:])


WORK = """import { run } from "chidori:agent";
run(async (input, chidori) => {
  let n = 0;
  for (;;) {
    try { await chidori.callAgent("thrower.js", { n }); } catch (e) { n++; }
    let x = 0; for (let i = 0; i < 3e6; i++) x += i;
  }
});
"""
THROWER = """import { run } from "chidori:agent";
run(async (input, chidori) => { let x = 0; for (let i = 0; i < 5e5; i++) x += i; throw new Error("no " + input.n); });
"""


def case_tree_budget_replay_charges_what_nested_runs_spent(v):
    """The root runs out itself, between two calls, after children that failed (caught) spent part of
    the budget: the replay does not run them again but charges their recorded ticks, so it stops at
    the same place and makes no call past the log."""
    for mode in MODES:
        with tempfile.TemporaryDirectory() as d, tempfile.TemporaryDirectory() as state:
            folder_with(d, {"work.js": WORK, "thrower.js": THROWER})
            env = {"CHIDORI_JS_OP_BUDGET": "50000000", "CHIDORI_WORKSPACE_ROOT": d}
            code, out, err = chidori(v, "run", mode, os.path.join(d, "work.js"), env=env, state=state, timeout=60)
            assert code == 1 and "the run and the agents it started used its 50000000 ticks" in err, \
                (mode, err[-2000:])
            run_id = run_id_of(err)
            recs = records_of(state, run_id)
            failed = [r for r in recs if r.get("function") == "call_agent" and "error" in r]
            assert len(failed) >= 3 and all(r.get("tree_ticks", 0) > 500000 for r in failed), (mode, failed[:2])
            code2, out2, err2 = chidori(v, "replay", os.path.join(d, "work.js"), run_id, env=env, state=state,
                                        timeout=60)
            assert code2 == 1 and "the run and the agents it started used its 50000000 ticks" in err2, \
                (mode, err2[-2000:])
            assert f"replay matched {len(recs)} records" in err2 and "differs" not in err2, (mode, err2[-2000:])
