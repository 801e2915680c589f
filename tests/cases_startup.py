"""tests/cases_startup.py — what the start-up savings (docs/primordials.md, Startup) must not change.

Our embedded bytecode carries no debug information (tools/compile_js.c), so our frames in a stack
have no location; a failed run's printed error must still show only the agent's frames (and native
ones), in-process and isolated, whether the run tore its runtime down or not (exit_after).
"""
import os
import tempfile

from cases import chidori

DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "startup")


def frames(err):
    return [line for line in err.splitlines() if line.startswith("    at ")]


def case_startup_failed_run_shows_only_agent_frames(v):
    """An error thrown through the prelude and an added built-in: every printed frame has a
    location (the agent's file, or native); none of ours leaks as a bare `at NAME`."""
    agent = os.path.join(DIR, "throws-through-plumbing.js")
    for mode in ("--no-isolate", "--isolate"):
        code, out, err = chidori(v, "run", mode, agent)
        assert code == 1, f"{mode}: exit {code}\n{err[-2000:]}"
        assert "RangeError: thrown by the agent" in err, err[-2000:]
        got = frames(err)
        assert any("throws-through-plumbing.js:" in f for f in got), f"{mode}: no agent frame\n{err}"
        bare = [f for f in got if not f.endswith(")")]
        assert not bare, f"{mode}: frames without a location (ours) in the printed error: {bare}\n{err}"
        assert "<chidori " not in err, err


def case_startup_eval_failure_shows_only_script_frames(v):
    """The same for `chidori eval --file` (which skips its teardown too): a timer callback is
    called by the prelude's loop."""
    body = ("setTimeout(() => [1, 2].values().map((x) => { if (x === 2) throw new "
            "RangeError('from the script'); return x; }).toArray(), 1);\n")
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "s.js")
        with open(path, "w") as f:
            f.write(body)
        code, out, err = chidori(v, "eval", "--file", path)
    assert code == 1, f"exit {code}\n{err[-2000:]}"
    assert "RangeError: from the script" in err, err[-2000:]
    bare = [f for f in frames(err) if not f.endswith(")")]
    assert not bare, f"frames without a location in the printed error: {bare}\n{err}"
