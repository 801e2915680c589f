"""tests/cases_node_surface2.py — the rest of console, process.nextTick's order and path.win32's
resolve/relative/parse/format, against Node 20 where Node can be asked.

- tests/node/console_more.js is a fixture (run by tests/run.py, stdout compared with
  console_more.out); here we check that the stored output is what Node prints for the same file.
- console's stderr side (assert, trace, group indentation on stderr, the warnings of countReset,
  timeEnd, timeLog, time) compared line by line with Node's, the parts that cannot agree (Node's
  pid in "(node:PID)", its stack frames) normalised.
- console.time durations come from the run's virtual clock: exact, the same on every machine and
  in a replay; the expected texts are Node's formatTime of the same durations.
- process.nextTick inside an ES module agent and its async functions orders as Node does.
"""
import json
import os
import re
import shutil
import subprocess
import tempfile

from cases import chidori, Skip
from run import ROOT

NODE_DIR = os.path.join(ROOT, "tests", "node")


def node():
    path = shutil.which("node")
    if not path:
        raise Skip("node is not installed: the oracle cannot run")
    version = subprocess.run([path, "--version"], capture_output=True, text=True).stdout.strip()
    if not version.startswith("v20."):
        raise Skip(f"the oracle is Node 20; found {version}")
    return path


def write(d, name, text):
    p = os.path.join(d, name)
    with open(p, "w", encoding="utf-8") as f:
        f.write(text)
    return p


def case_node_surface2_console_more_out_is_nodes(v):
    """tests/node/console_more.out is exactly what Node 20 prints for console_more.js."""
    n = node()
    p = subprocess.run([n, os.path.join(NODE_DIR, "console_more.js")], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    with open(os.path.join(NODE_DIR, "console_more.out"), encoding="utf-8") as f:
        assert f.read() == p.stdout, "console_more.out is stale: regenerate it with node tests/node/console_more.js"


CONSOLE_STDERR = r"""
console.assert(false);
console.assert(false, "%s is %d", "x", 5);
console.assert(0, { o: 1 }, "more");
console.assert(null, 7);
console.group("g");
console.error("e1\ne2");
console.warn("w %o", [1]);
console.group();
console.trace("here %d", 1);
console.groupEnd();
console.groupEnd();
console.groupEnd();
console.trace();
console.countReset("nope");
console.timeEnd("nolabel");
console.timeLog("nolabel2");
console.time("dup"); console.time("dup");
"""


def _normal_stderr(text):
    out = []
    for line in text.splitlines():
        if line.strip().startswith("at "):
            continue  # stack frames: Node's and ours name different functions
        if line.startswith("(Use `node --trace-warnings"):
            continue
        out.append(re.sub(r"^\(node:\d+\) ", "", line))
    return out


def case_node_surface2_console_stderr_as_node(v):
    """assert, error/warn/trace inside groups and the console warnings print Node's lines."""
    n = node()
    with tempfile.TemporaryDirectory() as d:
        script = write(d, "err.js", CONSOLE_STDERR)
        p = subprocess.run([n, script], capture_output=True, text=True, timeout=60)
        code, out, err = chidori(v, "eval", "--file", script)
        assert code == 0, err
        ours = [line for line in _normal_stderr(err) if not line.startswith(("Run id:", "Isolation:"))]
        want = _normal_stderr(p.stderr)
        assert ours == want, f"stderr differs from Node:\nours: {ours}\nnode: {want}"
        assert out == p.stdout, (out, p.stdout)
        assert "    Trace: here 1\n        at " in err, err  # the stack follows, indented with the group


# (sleep in ms before the check, the label's text) — the right-hand sides are Node 20's
# formatTime of the same durations (node --expose-internals, internal/console/constructor).
TIME_AGENT = r"""
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export async function agent() {
  console.time();
  console.time("long");
  console.time("zero");
  console.timeEnd("zero");
  await sleep(12);
  console.timeLog(undefined, "extra", { a: 1 });
  await sleep(988);
  console.timeLog();
  await sleep(500);
  console.timeEnd();
  await sleep(58500);
  console.timeLog("long");
  await sleep(5345);
  console.timeLog("long");
  await sleep(3600000 + 120000);
  console.timeEnd("long");
  console.time();
  await sleep(7);
  console.timeEnd();
  return "done";
}
"""
TIME_EXPECTED = [
    "zero: 0ms",
    "default: 12ms extra { a: 1 }",
    "default: 1.000s",
    "default: 1.500s",
    "long: 1:00.000 (m:ss.mmm)",
    "long: 1:05.345 (m:ss.mmm)",
    "long: 1:03:05.345 (h:mm:ss.mmm)",
    "default: 7ms",
]


def _console_lines(err):
    """The console's lines of a run (they share stderr with chidori's own)."""
    return [line for line in err.splitlines() if re.match(r"^(zero|default|long): ", line)]


def case_node_surface2_console_time_virtual_clock(v):
    """console.time/timeLog/timeEnd read the virtual clock: exact durations, Node's formats, and a
    replay prints the same lines."""
    with tempfile.TemporaryDirectory() as d, tempfile.TemporaryDirectory() as state:
        agent = write(d, "agent.js", TIME_AGENT)
        code, out, err = chidori(v, "run", agent, state=state)
        assert code == 0, err
        assert _console_lines(err) == TIME_EXPECTED, err
        rid = re.search(r"^Run id: (\S+)$", err, re.M).group(1)
        code2, out2, err2 = chidori(v, "replay", agent, rid, state=state)
        assert code2 == 0, err2
        assert _console_lines(err2) == TIME_EXPECTED, err2
        code3, out3, err3 = chidori(v, "run", agent, state=state)
        assert code3 == 0 and _console_lines(err3) == TIME_EXPECTED, err3


def case_node_surface2_console_time_format_is_nodes(v):
    """The expected durations above are Node's own formatTime of those milliseconds."""
    n = node()
    ms = [0, 12, 1000, 1500, 60000, 65345, 3785345, 7]
    p = subprocess.run([n, "--expose-internals", "-e",
                        "const {formatTime}=require('internal/console/constructor');"
                        f"console.log(JSON.stringify({json.dumps(ms)}.map(formatTime)))"],
                       capture_output=True, text=True, timeout=60)
    if p.returncode != 0:
        raise Skip("this Node does not expose internal/console/constructor: " + p.stderr[-300:])
    texts = json.loads(p.stdout)
    got = [line.split(": ", 1)[1].split(" extra")[0] for line in TIME_EXPECTED]
    assert got == texts, (got, texts)


NEXTTICK_AGENT = r"""
const log = [];
process.nextTick(() => log.push("top:tick"));
Promise.resolve().then(() => log.push("top:promise"));
export async function agent() {
  const o = [];
  process.nextTick((a, b) => o.push("tick" + a + b), 1, 2);
  Promise.resolve().then(() => o.push("p1")).then(() => o.push("p2"));
  queueMicrotask(() => o.push("q"));
  process.nextTick(() => { o.push("tick2"); process.nextTick(() => o.push("tick-in-tick")); Promise.resolve().then(() => o.push("p-in-tick")); });
  await new Promise((r) => setTimeout(r, 5));
  const t = [];
  await new Promise((r) => setTimeout(() => {
    Promise.resolve().then(() => t.push("p"));
    process.nextTick(() => t.push("tick"));
    setTimeout(r, 1);
  }, 1));
  return { top: log, inAgent: o, inTimer: t };
}
"""

NEXTTICK_RUNNER = r"""
import { pathToFileURL } from "node:url";
const mod = await import(pathToFileURL(process.argv[2]).href);
process.stdout.write(JSON.stringify(await mod.agent({}), null, 2) + "\n");
"""


def case_node_surface2_nexttick_order_as_node(v):
    """nextTick's queue runs before promise jobs queued in the same turn of a timer, after the
    running promise jobs in an async function, as Node orders them; isolated or not."""
    with tempfile.TemporaryDirectory() as d:
        agent = write(d, "agent.mjs", NEXTTICK_AGENT)
        code, out, err = chidori(v, "run", agent, "--no-isolate")
        assert code == 0, err
        got = json.loads(out)
        want = {"top": ["top:promise", "top:tick"],
                "inAgent": ["p1", "q", "p2", "tick12", "tick2", "tick-in-tick", "p-in-tick"],
                "inTimer": ["tick", "p"]}
        assert got == want, got
        code, out2, err = chidori(v, "run", agent)
        assert code == 0 and out2 == out, err
        try:
            n = node()
        except Skip:
            return
        runner = write(d, "runner.mjs", NEXTTICK_RUNNER)
        p = subprocess.run([n, runner, agent], capture_output=True, text=True, timeout=60)
        assert p.returncode == 0, p.stderr
        assert json.loads(p.stdout) == want, f"Node orders differently: {p.stdout}"
