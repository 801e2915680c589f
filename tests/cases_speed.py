"""tests/cases_speed.py — the fast paths of issue 22 change no record and no error (docs/durable-runs.md#speed).

An effect's arguments that JSON.stringify could serialize without running guest code are read in
C (src/engine/plain_args.c); everything else takes the JSON path. A corpus of argument shapes is
recorded three ways: plainly (the fast path wherever it applies), with a `toJSON` planted on
Object.prototype (which sends every call with an object or array through JSON.stringify), and in
an isolated worker; the records and the output must be the same bytes. Records are written from
the record without a tree and a loaded log moves its values (src/host/calllog.c): a long run is
resumed and replayed to the same bytes, and a changed call is still a divergence. An effect's
promise is made in C (hostEffect, QuickJS patch 0017) and must be what Promise.resolve made: its
own keys, and a guest's Object.prototype.then followed as the language follows it.
"""
import glob
import os
import re
import shutil
import subprocess
import tempfile
import time

from cases import Skip, chidori
from cases_calllog import fast_state

# Every shape the walk must treat as stringify does, or hand to stringify: text to escape, lone
# surrogates, -0, NaN and the infinities, big and tiny numbers, undefined and symbols in objects
# and arrays, integer-like keys (they come first), hidden and symbol keys, accessors, class
# instances, frozen and null-prototype objects, holes, boxed values, Date and other classes,
# toJSON on the value or inside it, proxies, large and deep values, BigInt and cycles (errors).
CORPUS = r"""export default async function (input, chidori) {
  if (input.tamper) {
    Object.defineProperty(Object.prototype, "toJSON", { value: undefined, writable: true, configurable: true });
  }
  const lone = String.fromCharCode(0xd800) + "x" + String.fromCharCode(0xdc01);
  class Point { constructor() { this.x = 1; this.y = -0; } }
  const hidden = { shown: 1 };
  Object.defineProperty(hidden, "hidden", { value: 2, enumerable: false });
  hidden[Symbol("s")] = 3;
  const getter = { get g() { return "got"; } };
  const extra = [1, 2]; extra.extra = "no";
  const cycle = { a: 1 }; cycle.self = cycle;
  let deep = { end: true }; for (let i = 0; i < 40; i++) deep = { d: deep };
  let nested = { end: true }; for (let i = 0; i < 20; i++) nested = [nested];
  const bare = Object.create(null); bare.k = "v";
  const shapes = [
    "text", "", "quote\" back\\ nl\n tab\t cr\r bs\b ff\f nul\u0000 c1\u0001 del\u007f",
    "é ü 中文 😀 \u2028\u2029", lone, String.fromCharCode(0xdfff),
    0, -0, 1.5, -2.25, 1e21, 1e-7, 123456789012345680000, 2 ** 53 + 2, Number.MAX_VALUE, Number.MIN_VALUE,
    NaN, Infinity, -Infinity, true, false, null, undefined,
    { b: 1, 2: "two", 1: "one", a: undefined, s: Symbol("x"), f() {}, n: null },
    [undefined, Symbol("y"), () => 1, 0, "z"], [undefined, Symbol("y"), 0, "z", null, -0, NaN],
    { u: undefined, v: [undefined], w: { x: -0, y: Infinity } }, [], {}, [[[]]], { "": "empty key", "a\u0000b": 1 },
    new Point(), hidden, getter, extra, bare, Object.freeze({ fz: [1, { q: 2 }] }),
    [1, , 3], new Date(0), new Map([[1, 2]]), new Number(5), new String("boxed"), Object(Symbol("b")),
    "x".repeat(300000), deep, nested, Array.from({ length: 5000 }, (_, i) => i),
    { toJSON() { return "own toJSON"; } }, { inner: { toJSON: () => 7 } },
    new Proxy({ p: 1 }, {}), new Proxy([1], {}), /re/g, new Error("e"), new Uint8Array([1, 2]),
    10n, { big: 10n }, cycle,
  ];
  const errors = [];
  for (let i = 0; i < shapes.length; i++) {
    try {
      await chidori.mark("shape " + i, shapes[i]);
    } catch (e) {
      errors.push(i + ": " + e.message);
    }
  }
  await chidori.tool("missing-tool", { k: [1, "two"] }).catch((e) => errors.push("tool: " + e.message));
  return { errors, n: shapes.length };
}
"""

VOLATILE = re.compile(rb',"(?:duration_ms|duration_us)":[0-9.e+]+|,"timestamp":"[^"]*"')


def records_of(runs):
    (path,) = glob.glob(os.path.join(runs, "*", "records.jsonl"))
    with open(path, "rb") as f:
        return path, f.read()


def case_speed_plain_args_record_what_the_json_path_records(v):
    """The same records (byte for byte, times aside) and the same output, errors included, with the
    C walk, with every object call forced through JSON.stringify, and in a worker. Seen failing
    when the walk dropped undefined array elements instead of writing null."""
    state = fast_state()
    try:
        agent = os.path.join(state, "corpus.js")
        with open(agent, "w") as f:
            f.write(CORPUS)
        seen = {}
        for name, extra in (("plain", ["--no-isolate"]), ("stringify", ["--no-isolate", "-i", "tamper=1"]),
                            ("isolated", ["--isolate"])):
            runs = os.path.join(state, name)
            code, out, err = chidori(v, "run", agent, "--runs-dir", runs, "-q", *extra, state=state, timeout=60)
            assert code == 0, (name, code, err[-2000:])
            _, data = records_of(runs)
            seen[name] = (VOLATILE.sub(b"", data), out)
        plain = seen["plain"]
        assert plain[0].count(b"\n") == 55, plain[0][-500:]  # 57 shapes, 3 refused, then the tool call
        assert b'"data":[null,null,0,"z",null,0,null]' in plain[0], "undefined/symbol/NaN in an array"
        assert b'"data":{"u":' not in plain[0] and b'"data":{"v":[null],"w":{"x":0,"y":null}}' in plain[0]
        assert b'"data":{"1":"one","2":"two","b":1,"n":null}' in plain[0], "key order or left-out members"
        assert b'"data":"\\ud800x\\udc01"' in plain[0], "lone surrogates"
        assert "Do not know how to serialize a BigInt" in plain[1] and "circular reference" in plain[1], plain[1]
        for name in ("stringify", "isolated"):
            assert seen[name][0] == plain[0], (name, "records differ from the plain run")
            assert seen[name][1] == plain[1], (name, seen[name][1], plain[1])
    finally:
        shutil.rmtree(state)


LONG = """export default async function (input, chidori) {
  for (let i = 0; i < 400; i++) await chidori.mark("step " + (i === 250 ? input.at250 || "same" : "same"), { i, t: "é" });
  const answer = await chidori.input("go on?");
  await chidori.mark("after", { answer });
  return { answer };
}
"""


def case_speed_long_log_resumes_and_replays_to_the_same_bytes(v):
    """A run of 400 recorded marks pauses, resumes from its log (in-process and isolated, each from
    a copy), and replays with zero live calls; the log keeps its first 401 lines byte for byte, and
    an agent changed at call 251 is a divergence there."""
    state = fast_state()
    try:
        agent = os.path.join(state, "long.js")
        with open(agent, "w") as f:
            f.write(LONG)
        runs = os.path.join(state, "runs")
        code, out, err = chidori(v, "run", "--no-isolate", agent, "--runs-dir", runs, "-q", state=state, timeout=60)
        assert code == 3, (code, err[-2000:])
        path, before = records_of(runs)
        assert before.count(b"\n") == 400
        rid = os.path.basename(os.path.dirname(path))
        for iso in ("--no-isolate", "--isolate"):
            copy = os.path.join(state, "copy" + iso)
            shutil.copytree(runs, copy)
            code, out, err = chidori(v, "resume", iso, agent, rid, "--runs-dir", copy, "--response", "yes", "-q",
                                     state=state, timeout=60)
            assert code == 0 and '"answer": "yes"' in out, (iso, code, out, err[-2000:])
            _, after = records_of(copy)
            assert after.startswith(before), (iso, "the replayed prefix changed")
            assert after.count(b"\n") == 402 and b'"function":"input"' in after.split(b"\n")[400]
            code, out2, err = chidori(v, "replay", iso, agent, rid, "--runs-dir", copy, state=state, timeout=60)
            assert code == 0 and out2 == out, (iso, code, out2, err[-2000:])
            _, again = records_of(copy)
            assert again == after, (iso, "a replay wrote to the log")
        with open(agent, "w") as f:
            f.write(LONG.replace('input.at250 || "same"', '"changed"'))
        code, out, err = chidori(v, "replay", agent, rid, "--runs-dir", os.path.join(state, "copy--no-isolate"),
                                 state=state, timeout=60)
        assert code == 1 and "differs from the recording" in err and "251" in err, (code, err[-2000:])
    finally:
        shutil.rmtree(state)


THENABLE = r"""export default async function (input, chidori) {
  const out = [];
  const p0 = chidori.mark("x");
  out.push(Object.getOwnPropertyNames(p0).join(","), p0.constructor === Promise, p0 instanceof Promise);
  out.push(await p0);
  await chidori.memory.set("k", { a: 1 });
  const step = (name) => chidori.memory.get("k"); // an object reply, through effect()
  Object.prototype.then = function (resolve) { resolve("hijacked:" + typeof this); };
  try { out.push(await step("fn")); } catch (e) { out.push("fn threw " + e); }
  delete Object.prototype.then;
  Object.defineProperty(Object.prototype, "then", { configurable: true, get() { throw new Error("boom"); } });
  try { out.push(await step("getter")); } catch (e) { out.push("getter threw " + e.message); }
  delete Object.prototype.then;
  Object.prototype.then = 5;
  try { out.push(await step("number")); } catch (e) { out.push("number threw " + e); }
  delete Object.prototype.then;
  out.push(await chidori.mark("y"), await chidori.mark("z") === null);
  return out;
}
"""


def case_speed_effect_promise_is_what_promise_resolve_makes(v):
    """An effect's promise is made in C (hostEffect, QuickJS patch 0017) as Promise.resolve made it
    in the prelude: own `constructor` and `then`, and an object reply followed through a `then` a
    guest put on Object.prototype (called, a getter that throws rejects, a non-function is
    ignored). In-process, isolated, and replayed, the same output. Seen failing when the patch
    fulfilled an object reply without reading its `then` (the output had {"a": 1} three times)."""
    state = fast_state()
    try:
        agent = os.path.join(state, "thenable.js")
        with open(agent, "w") as f:
            f.write(THENABLE)
        want = ['"constructor,then"', "true", "true", "null", '"hijacked:object"', '"getter threw boom"',
                '{\n    "a": 1\n  }', "null", "true"]
        for iso in ("--no-isolate", "--isolate"):
            runs = os.path.join(state, "runs" + iso)
            code, out, err = chidori(v, "run", iso, agent, "--runs-dir", runs, "-q", state=state, timeout=60)
            assert code == 0, (iso, code, err[-2000:])
            for w in want:
                assert w in out, (iso, w, out)
            path, _ = records_of(runs)
            rid = os.path.basename(os.path.dirname(path))
            code, out2, err = chidori(v, "replay", iso, agent, rid, "--runs-dir", runs, state=state, timeout=60)
            assert code == 0 and out2 == out, (iso, code, out2, err[-2000:])
    finally:
        shutil.rmtree(state)


HEAPY = """export default async function (input, chidori) {
  const keep = [];
  for (let i = 0; i < 150000; i++) keep.push({ i, s: "x" + i });
  globalThis.keep = keep;
  for (;;) {}
}
"""


def huge_pages_offered():
    try:
        with open("/sys/kernel/mm/transparent_hugepage/enabled") as f:
            text = f.read()
    except OSError:
        return False
    return "[always]" in text or "[madvise]" in text


def huge_kb(pid):
    """{"heap": kB of huge pages in the [heap] mappings, "anon": the most in one other anonymous
    mapping} of a live process, or None once it is gone."""
    try:
        with open(f"/proc/{pid}/smaps") as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    out, name = {"heap": 0, "anon": 0}, ""
    for line in lines:
        if re.match(r"^[0-9a-f]+-[0-9a-f]+ ", line):
            parts = line.split()
            name = parts[5] if len(parts) > 5 else ""
        elif line.startswith("AnonHugePages:"):
            kb = int(line.split()[1])
            if name == "[heap]":
                out["heap"] += kb
            elif name == "":
                out["anon"] = max(out["anon"], kb)
    return out


def descendants(pid):
    seen, todo = [], [pid]
    while todo:
        p = todo.pop()
        try:
            with open(f"/proc/{p}/task/{p}/children") as f:
                kids = [int(x) for x in f.read().split()]
        except OSError:
            kids = []
        seen += kids
        todo += kids
    return seen


def stop_tree(p):
    """Kills a chidori process started with Popen and every process under it, and waits."""
    for pid in descendants(p.pid):
        try:
            os.kill(pid, 9)
        except OSError:
            pass
    p.kill()
    p.communicate()


def case_speed_one_run_heap_and_set_up_arena_are_huge_pages(v):
    """A process that runs one agent (here `run --no-isolate`) asks for its heap in huge pages, and
    the engine's set-up arena is one, there and in an isolated worker (src/util/heap_pages.c,
    src/engine/arena.c): on a machine whose every new 4 KiB page traps to the hypervisor, that is
    a tenth of a run's start and a fifth of a long resume (docs/limits.md). Checked live, in the
    process's /proc/PID/smaps, while the agent holds a few megabytes and spins."""
    if v.sanitized:
        # not a skip: the build has neither thing by design (ASan's allocator serves both)
        print(f"huge pages: checked on the release build only ({v.name}: AddressSanitizer's allocator)")
        return
    if not huge_pages_offered():
        raise Skip("this kernel offers no transparent huge pages (transparent_hugepage/enabled is never)")
    state = fast_state()
    try:
        agent = os.path.join(state, "heapy.js")
        with open(agent, "w") as f:
            f.write(HEAPY)
        for iso in ("--no-isolate", "--isolate"):
            env = v.env({"CHIDORI_STATE_DIR": state})
            p = subprocess.Popen([v.chidori, "run", iso, agent, "-q"], env=env, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.PIPE)
            try:
                got, deadline = None, time.monotonic() + 20 * v.slow
                while time.monotonic() < deadline and p.poll() is None:
                    pids = [p.pid] if iso == "--no-isolate" else descendants(p.pid)
                    for pid in pids:
                        kb = huge_kb(pid)
                        if kb and (kb["heap"] > 0 or iso == "--isolate") and kb["anon"] >= 2048:
                            got = kb
                    if got:
                        break
                    time.sleep(0.05)
                assert got, (iso, "no process of the run had a huge page for its arena (and in-process, one in its heap)",
                             [huge_kb(x) for x in ([p.pid] + descendants(p.pid))], p.poll())
            finally:
                stop_tree(p)
    finally:
        shutil.rmtree(state)


TURNS = """export default async function (input, chidori) {
  for (let i = 0; i < Number(input.n); i++) await chidori.template("{{ t }}", { t: "tick" });
  await chidori.log("spinning");
  for (;;) {}
}
"""


def allowed_cpus(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("Cpus_allowed_list:"):
                return line.split()[1]
    raise AssertionError(f"no Cpus_allowed_list for {pid}")


def case_speed_worker_and_parent_take_turns_on_one_cpu_only_once_a_run_keeps_waiting(v):
    """An isolated CLI run's parent and worker share one CPU once the run has waited for 32 replies
    (src/isolate/supervisor.c, PIN_AFTER_REPLIES: a waiting call's round trip is cheaper on one
    CPU), and not before: a run that has waited for a few is left where the scheduler puts it (a
    hello run took 6-8% longer pinned from the start; docs/sandbox-model.md). Read live, from both
    processes' allowed CPUs, while the agent spins after its calls."""
    if len(os.sched_getaffinity(0)) < 2:
        raise Skip("one CPU: there is nothing to pin to")
    every = allowed_cpus(os.getpid())
    state = fast_state()
    try:
        agent = os.path.join(state, "turns.js")
        with open(agent, "w") as f:
            f.write(TURNS)
        for n, pinned in ((3, False), (40, True)):
            env = v.env({"CHIDORI_STATE_DIR": state, "CHIDORI_JS_OP_BUDGET": "0"})
            p = subprocess.Popen([v.chidori, "run", "--isolate", agent, "-i", f"n={n}", "-q"], env=env,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            try:
                got, deadline = None, time.monotonic() + 20 * v.slow
                while time.monotonic() < deadline and p.poll() is None and not got:
                    workers = descendants(p.pid)
                    if workers:
                        got = (allowed_cpus(p.pid), allowed_cpus(workers[-1]))
                        if not pinned:
                            time.sleep(0.3 * v.slow)  # well after its three calls: still not pinned
                            got = (allowed_cpus(p.pid), allowed_cpus(workers[-1]))
                        elif got[0] == every:
                            got = None  # not yet through its calls
                    time.sleep(0.05)
                assert got, (n, "no worker seen, or (n=40) its run never moved both onto one CPU", p.poll())
                if pinned:
                    assert got[0] == got[1] and got[0] != every and "," not in got[0] and "-" not in got[0], (n, got, every)
                else:
                    assert got == (every, every), (n, got, every)
            finally:
                stop_tree(p)
    finally:
        shutil.rmtree(state)
