"""tests/cases_isolate_nested.py — nested agents (chidori.callAgent) are capped per root run
(src/host/effects/agent.c): CHIDORI_MAX_NESTED_RUNS nested runs over the whole tree (each gets a
fresh CPU budget, so a loop of callAgent was unbounded), and HOST_MAX_NESTING levels deep. The
cap is replay-consistent: a replay meets it at the same call.
"""
import os
import tempfile
import time

from cases import chidori
from cases_effects import run_id_of

LOOP = """import { run } from "chidori:agent";
run(async (input, chidori) => {
  let n = 0;
  for (;;) { await chidori.callAgent("child.js", { n }); n++; }
});
"""
CHILD = """import { run } from "chidori:agent";
run(async (input, chidori) => ({ got: input.n }));
"""
# Calls itself twice per level: 2 + 4 + ... nested runs, far more than the cap before depth 8.
TREE = """import { run } from "chidori:agent";
run(async (input, chidori) => {
  const d = (input.d || 0) + 1;
  await chidori.callAgent("tree.js", { d });
  await chidori.callAgent("tree.js", { d });
  return d;
});
"""
DEEP = """import { run } from "chidori:agent";
run(async (input, chidori) => chidori.callAgent("deep.js", { d: (input.d || 0) + 1 }));
"""


def folder_with(d, files):
    for name, text in files.items():
        with open(os.path.join(d, name), "w") as f:
            f.write(text)


def case_nested_a_loop_of_call_agent_ends_at_the_cap(v):
    for mode in ("--no-isolate", "--isolate"):
        with tempfile.TemporaryDirectory() as d, tempfile.TemporaryDirectory() as state:
            folder_with(d, {"loop.js": LOOP, "child.js": CHILD})
            start = time.monotonic()
            code, out, err = chidori(v, "run", mode, os.path.join(d, "loop.js"), env={"CHIDORI_WORKSPACE_ROOT": d},
                                     state=state, timeout=60)
            secs = time.monotonic() - start
            assert code == 1 and "started 64 nested agent runs" in err and "CHIDORI_MAX_NESTED_RUNS=64" in err, \
                (mode, err[-2000:])
            assert secs < 30, f"{mode}: {secs:.1f} s"
            # the replay meets the cap at the same call, with no live effect
            code2, out2, err2 = chidori(v, "replay", os.path.join(d, "loop.js"), run_id_of(err),
                                        env={"CHIDORI_WORKSPACE_ROOT": d}, state=state, timeout=60)
            assert code2 == 1 and "started 64 nested agent runs" in err2, (mode, err2[-2000:])


def case_nested_the_cap_counts_every_depth_and_is_a_setting(v):
    with tempfile.TemporaryDirectory() as d:
        folder_with(d, {"tree.js": TREE})
        code, out, err = chidori(v, "run", os.path.join(d, "tree.js"),
                                 env={"CHIDORI_MAX_NESTED_RUNS": "5", "CHIDORI_WORKSPACE_ROOT": d}, timeout=60)
        assert code == 1 and "started 5 nested agent runs" in err and "CHIDORI_MAX_NESTED_RUNS=5" in err, err[-2000:]
        code, out, err = chidori(v, "run", os.path.join(d, "tree.js"), env={"CHIDORI_MAX_NESTED_RUNS": "lots"})
        assert code == 2 and "CHIDORI_MAX_NESTED_RUNS must be a whole number" in err, (code, err)


def case_nested_depth_is_capped(v):
    with tempfile.TemporaryDirectory() as d:
        folder_with(d, {"deep.js": DEEP})
        code, out, err = chidori(v, "run", os.path.join(d, "deep.js"), env={"CHIDORI_WORKSPACE_ROOT": d}, timeout=60)
        assert code == 1 and "agents nested more than 8 deep" in err, err[-2000:]
