"""tests/cases_node_oracle.py — the Node/Web shims (src/engine/js/node/) against Node itself.

Each tests/node/oracle/<name>.mjs exports agent() returning a JSON summary of many behaviours of
one shim. chidori must print exactly what Node 20 prints for the same module (the Node side is
run by tests/node/oracle/_run_node.mjs with the working directory "/", as in a run). Node's
output is kept in tests/node/oracle/expected/<name>.json so the comparison also holds on a
machine without Node; case_node_oracle_expected_is_current re-derives those files from Node when
it is installed, so they cannot drift. Regenerate them with:

    python3 tests/cases_node_oracle.py --update

Every module is also run isolated (the default) and must print the same bytes as --no-isolate.
Behaviour that intentionally differs from Node stays out of these modules; tests/node/*.js
fixtures pin it instead.
"""
import difflib
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from cases import chidori, Skip  # noqa: E402
from run import ROOT  # noqa: E402

ORACLE_DIR = os.path.join(ROOT, "tests", "node", "oracle")
EXPECTED_DIR = os.path.join(ORACLE_DIR, "expected")
RUNNER = os.path.join(ORACLE_DIR, "_run_node.mjs")
NODE_MAJOR = 20


def oracle_names():
    return sorted(f[:-4] for f in os.listdir(ORACLE_DIR) if f.endswith(".mjs") and not f.startswith("_"))


def _diff(got, want, what):
    lines = list(difflib.unified_diff(want.splitlines(), got.splitlines(), "expected (Node)", what, lineterm="", n=2))
    shown = "\n".join(lines[:60])
    return shown + ("\n..." if len(lines) > 60 else "")


def node_binary():
    """Node 20 as the oracle, or None (with the reason) when it is not installed."""
    node = shutil.which("node")
    if not node:
        return None, "node is not installed"
    try:
        version = subprocess.run([node, "--version"], capture_output=True, text=True, timeout=20).stdout.strip()
    except (OSError, subprocess.SubprocessError) as e:
        return None, f"node --version failed: {e}"
    m = re.match(r"v(\d+)\.", version)
    if not m or int(m.group(1)) != NODE_MAJOR:
        return None, f"the oracle is Node {NODE_MAJOR}; found {version or 'an unknown version'}"
    return node, ""


def run_node(node, name):
    p = subprocess.run([node, RUNNER, os.path.join(ORACLE_DIR, name + ".mjs")], capture_output=True, text=True,
                       timeout=60, cwd="/")
    if p.returncode != 0:
        raise AssertionError(f"node failed on {name}.mjs (exit {p.returncode}): {p.stderr[-2000:]}")
    return p.stdout


def term_escaped(text):
    """What chidori prints for Node's output: the same JSON, with the C1 controls and the bidi
    embedding/override/isolate characters written as \\u escapes, so a result cannot drive the
    operator's terminal (src/util/termtext.c); every other byte as Node printed it."""
    return re.sub("[\u0080-\u009f\u202a-\u202e\u2066-\u2069]", lambda m: "\\u%04x" % ord(m.group(0)), text)


def _check_module(v, name):
    path = os.path.join(ORACLE_DIR, name + ".mjs")
    with open(os.path.join(EXPECTED_DIR, name + ".json"), encoding="utf-8") as f:
        expected = f.read()
    code, out, err = chidori(v, "run", path, "--no-isolate")
    assert code == 0, f"{name}.mjs --no-isolate: exit {code}: {err[-2000:]}"
    expected = term_escaped(expected)
    assert out == expected, f"{name}.mjs differs from Node:\n" + _diff(out, expected, "chidori")
    code, isolated, err = chidori(v, "run", path)
    assert code == 0, f"{name}.mjs isolated: exit {code}: {err[-2000:]}"
    assert "Isolation: process" in err or "Isolation: off" in err, err
    assert isolated == out, f"{name}.mjs: the isolated run differs from --no-isolate:\n" + _diff(isolated, out, "isolated")


def _make_case(name):
    def case(v):
        _check_module(v, name)
    case.__name__ = "case_node_oracle_" + name
    case.__doc__ = f"tests/node/oracle/{name}.mjs prints what Node prints, isolated or not."
    return case


for _name in oracle_names():
    globals()["case_node_oracle_" + _name] = _make_case(_name)


def case_node_oracle_expected_is_current(v):
    """The stored Node outputs are what Node prints today (so they cannot drift from the oracle)."""
    node, why = node_binary()
    if node is None:
        raise Skip(why)
    names = oracle_names()
    stored = sorted(f[:-5] for f in os.listdir(EXPECTED_DIR) if f.endswith(".json"))
    assert stored == names, f"expected/ holds {stored}, oracle modules are {names}"
    for name in names:
        got = run_node(node, name)
        with open(os.path.join(EXPECTED_DIR, name + ".json"), encoding="utf-8") as f:
            want = f.read()
        assert got == want, f"expected/{name}.json is stale (run tests/cases_node_oracle.py --update):\n" + \
            _diff(want, got, "stored")


def update():
    node, why = node_binary()
    if node is None:
        sys.exit(f"cannot update: {why}")
    os.makedirs(EXPECTED_DIR, exist_ok=True)
    for name in oracle_names():
        with open(os.path.join(EXPECTED_DIR, name + ".json"), "w", encoding="utf-8") as f:
            f.write(run_node(node, name))
        print(f"wrote expected/{name}.json")


if __name__ == "__main__":
    if sys.argv[1:] == ["--update"]:
        update()
    else:
        sys.exit("usage: python3 tests/cases_node_oracle.py --update")
