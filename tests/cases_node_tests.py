"""tests/cases_node_tests.py — the harness of `make node-tests NODE_SRC=DIR` (tools/node-tests/run.py)
on a small folder shaped like Node's test/parallel that we wrote (tests/node-tests-fixture): which
statements count as checks, that a failure neither stops the following checks nor spreads to them,
failures in callbacks and expected calls never made, a difference each way between Node and
chidori, a check left out for `vm`, and the files excluded with their reasons. Needs Node 20 (the
other side of every count); skipped without it. Real processes.
"""
import importlib.util
import json
import os
import subprocess
import sys
import tempfile

from cases import Skip
from cases_node_oracle import node_binary
from run import ROOT

FIXTURE = os.path.join(ROOT, "tests", "node-tests-fixture")
RUNNER = os.path.join(ROOT, "tools", "node-tests", "run.py")


def _load(name, file):
    """A module of tools/node-tests by path (its run.py would clash with tests/run.py by name)."""
    spec = importlib.util.spec_from_file_location(name, os.path.join(ROOT, "tools", "node-tests", file))
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def _run(v, *extra):
    node, why = node_binary()
    if not node:
        raise Skip(why)
    argv = [sys.executable, RUNNER, "--node-src", FIXTURE, "--chidori", v.chidori, "--node", node,
            "-j", "2", *extra]
    p = subprocess.run(argv, capture_output=True, text=True, timeout=120 * v.slow, env=v.env())
    assert p.returncode == 0, p.stderr[-3000:]
    return p.stdout


def case_node_tests_fixture_counts_and_verdicts(v):
    """Ten checks in the fixture file, each with the verdict its comment states on each side; the
    table, the excluded files and the differences as the tool prints them."""
    with tempfile.TemporaryDirectory() as d:
        out_json = os.path.join(d, "r.json")
        out = _run(v, "--json", out_json, "--differences")
        rows = {l.split()[0]: l.split()[1:] for l in out.splitlines() if l[:1].isalpha() and len(l.split()) == 9}
        # files, excluded, checks, node, chidori, % all, % node's, x-checks
        assert rows["path"] == ["1", "1", "10", "5", "5", "50.0%", "80.0%", "1"], out
        assert rows["events"][:3] == ["0", "1", "0"], out
        assert "test-path-fixture-flags.js" in out and "needs Node flags (--pending-deprecation)" in out, out
        assert "test-event-fixture-child.js" in out and "node:child_process (child processes)" in out, out
        assert "checks excluded: 1 need vm (other contexts)" in out, out
        with open(out_json) as f:
            results = {r["file"]: r for r in json.load(f)}
    checks = {c["line"]: (c["node"] is None, c["ours"] is None) for c in results["test-path-fixture.js"]["checks"]}
    want = {
        19: (True, True),    # passes on both sides
        20: (False, False),  # fails on both
        21: (True, True),    # passes after a failure
        22: (True, True),    # through a helper of the file whose body asserts
        23: (False, False),  # fails inside a timer callback: counted against the statement
        26: (False, False),  # an expected call never made
        27: (True, False),   # Node passes, chidori fails
        28: (False, True),   # chidori passes, Node fails
        29: (False, False),  # a promise rejected later
        30: (True, True),    # an expected call made from a promise job
    }
    assert checks == want, checks
    ours = {c["line"]: c["ours"] for c in results["test-path-fixture.js"]["checks"]}
    assert ours[23].startswith("AssertionError"), ours[23]
    assert ours[26] == "Error: mustCall: expected 1 call(s), got 0", ours[26]
    assert "test-path-fixture.js:27  AssertionError" in out.split("checks chidori passes and Node fails:")[0], out
    assert "test-path-fixture.js:28" in out.split("checks chidori passes and Node fails:")[1], out


def case_node_tests_statement_cutter(v):
    """The statement cutter on the shapes Node's test files use: semicolon-less lines, `else` after
    a braceless `if`, regular expressions against division, templates with nested `${}`, and a
    class kept visible to later statements by the rewrite."""
    ntrun = _load("nodetests_run", "run.py")
    jssplit = _load("jssplit", "jssplit.py")
    src = ("'use strict'\n"
           "const a = 4 / 2 / 1\n"
           "const re = /[/]}/g;\n"
           "if (a) x();\nelse y();\n"
           "const t = `a${`b${'}'}`}`;\n"
           "class K {}\n"
           "function f() { return 1; }\n"
           "(function () {})();\n"
           "do { a; } while (0);\n")
    texts = [src[s:e] for s, e, _ in jssplit.split_statements(src)]
    assert texts == ["'use strict'", "const a = 4 / 2 / 1", "const re = /[/]}/g;", "if (a) x();\nelse y();",
                     "const t = `a${`b${'}'}`}`;", "class K {}", "function f() { return 1; }",
                     "(function () {})();", "do { a; } while (0);"], texts
    out = ntrun.rewrite(src, ntrun.analyse(src))
    assert "var K = class K {};" in out, out
    assert "var a = 4 / 2 / 1" in out, out
    assert out.count("\n") == src.count("\n"), out  # line numbers kept
    for bad in ("const s = 'open\n", "/* never closed", "f(()"):
        try:
            jssplit.split_statements(bad)
        except ValueError:
            continue
        raise AssertionError("accepted %r" % bad)
