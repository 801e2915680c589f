"""tests/cases_primordials.py — the tampering corpus (docs/primordials.md): guest code that replaces,
deletes or booby-traps the builtins the prelude uses changes nothing about the run's effects.

One agent body (log, a step whose fn does its own effect, mark, memory, util.parallel, a timer,
util.tryCall, console, Error.captureStackTrace) runs once untouched, then once per builtin family with that family tampered, both before
the handler starts and after its first effect. Each tampered run must exit 0, print the same
output and leave the same call log (every record's op, args and result) as the untouched run, and
its replay must print the same. Isolated and in-process.

The Promise.prototype.then family is the forged-record hole: a `then` that keeps the callbacks it
is given and calls them again with a value of its choosing used to write extra `step` records.
Before primordials.js every family but `json` failed (JSON was already captured; the QuickJS side
of JSON, its setter-visible internal lists, is what `array_setters` catches).
"""
import json
import os
import tempfile

from cases import chidori
from cases_effects import run_id_of

MODES = (("isolated", ()), ("in-process", ("--no-isolate",)))

BODY = r"""
import { run } from "chidori:agent";
const stolen = [];
function tamper() {
%TAMPER%
}
if (%BEFORE%) tamper();
run(async (input, chidori) => {
  await chidori.log("start");
  if (!%BEFORE%) tamper();
  const v = await chidori.step("s1", async () => {
    await chidori.memory.set("k", "v1", { namespace: "ns" });
    return { n: 1, list: [1, 2] };
  });
  await chidori.mark("after", { got: v.n });
  const got = await chidori.memory.get("k", { namespace: "ns" });
  const all = await chidori.util.parallel([() => chidori.log("p1"), () => chidori.log("p2")], { concurrency: 2 });
  await new Promise((resolve) => setTimeout(resolve, 5));
  const tried = await chidori.util.tryCall(() => chidori.log("tried"));
  // a then-thief calls back what it kept, with a value of its choosing
  for (let i = 0; i < stolen.length; i++) { try { stolen[i]({ forged: true }); } catch (e) {} }
  await new Promise((resolve) => setTimeout(resolve, 5));
  console.log("line one\nline two", 42);
  const traced = {};
  Error.captureStackTrace(traced);
  return { v, got, n: all.length, ok: tried.ok, stack: typeof traced.stack };
});
"""

TAMPERS = {
    # keeps every callback the plumbing hands it (and still delegates)
    "promise_then": """
  const then = Promise.prototype.then;
  Promise.prototype.then = function (f, r) {
    if (typeof f === "function") stolen.push(f);
    return Reflect.apply(then, this, [f, r]);
  };""",
    "promise_statics": """
  Promise.resolve = () => { throw new Error("Promise.resolve tampered"); };
  Promise.reject = () => { throw new Error("Promise.reject tampered"); };
  Promise.all = () => { throw new Error("Promise.all tampered"); };
  Object.defineProperty(Promise.prototype, "constructor", { value: function Evil() { throw new Error("species tampered"); },
    writable: true, configurable: true });""",
    "function_call_apply": """
  Function.prototype.call = function () { throw new Error("call tampered"); };
  Function.prototype.apply = function () { throw new Error("apply tampered"); };
  Function.prototype.bind = function () { throw new Error("bind tampered"); };""",
    "array_setters": """
  for (const k of ["0", "1", "2", "3", "4"])
    Object.defineProperty(Array.prototype, k, { set() { throw new Error("Array.prototype setter " + k); }, configurable: true });
  Array.prototype.push = function () { throw new Error("push tampered"); };
  Array.prototype.join = function () { throw new Error("join tampered"); };""",
    "object_setters": """
  for (const k of ["data", "key", "value", "namespace", "prefix", "args", "fn", "level", "text", "label", "name", "at", "id"])
    Object.defineProperty(Object.prototype, k, { __proto__: null, set() { throw new Error("Object.prototype setter " + k); }, configurable: true });
  Object.defineProperty(Object.prototype, "get", { __proto__: null, get() { return () => 1; }, configurable: true });""",
    "symbol_iterator": """
  const ArrayIteratorProto = Object.getPrototypeOf([][Symbol.iterator]());
  Array.prototype[Symbol.iterator] = function () { throw new Error("array iterator tampered"); };
  ArrayIteratorProto.next = function () { throw new Error("next tampered"); };
  Map.prototype[Symbol.iterator] = function () { throw new Error("map iterator tampered"); };""",
    "json": """
  JSON.stringify = () => '"forged"';
  JSON.parse = () => ({ forged: true });""",
    "map_set": """
  delete Map.prototype.values;
  delete Map.prototype.entries;
  Map.prototype.set = function () { throw new Error("Map.set tampered"); };
  Map.prototype.get = function () { throw new Error("Map.get tampered"); };
  Map.prototype.forEach = function () { throw new Error("Map.forEach tampered"); };
  Map.prototype.delete = function () { throw new Error("Map.delete tampered"); };
  Set.prototype.add = function () { throw new Error("Set.add tampered"); };""",
    "string_regexp": """
  for (const k of ["split", "slice", "includes", "indexOf", "replace", "startsWith", "repeat", "trim"])
    String.prototype[k] = function () { throw new Error("String.prototype." + k + " tampered"); };
  RegExp.prototype.exec = function () { throw new Error("exec tampered"); };
  RegExp.prototype[Symbol.replace] = function () { throw new Error("Symbol.replace tampered"); };""",
}


def _agent(tmp, tamper, before):
    text = BODY.replace("%TAMPER%", tamper).replace("%BEFORE%", "true" if before else "false")
    path = os.path.join(tmp, "agent.js")
    with open(path, "w") as f:
        f.write(text)
    return path


def _calls(state, rid):
    """The call log as (op, args, result, error): what must not change."""
    out = []
    with open(os.path.join(state, "runs", rid, "records.jsonl")) as f:
        for line in f:
            if not line.strip():
                continue
            r = json.loads(line)
            out.append(json.dumps([r.get("function"), r.get("args"), r.get("result"), r.get("error")], sort_keys=True))
    return out


def _run(v, tmp, tamper, before, flags):
    state = os.path.join(tmp, "state")
    agent = _agent(tmp, tamper, before)
    code, out, err = chidori(v, "run", *flags, agent, state=state)
    assert code == 0, f"exit {code}\n{out}\n{err[-2000:]}"
    rid = run_id_of(err)
    return state, agent, rid, out


_BASELINE = {}


def _baseline(v, mode, flags):
    """The untouched run's output and call log (once per variant and mode)."""
    key = (v.name, mode)
    if key not in _BASELINE:
        with tempfile.TemporaryDirectory() as tmp:
            state, _, rid, out = _run(v, tmp, "", True, flags)
            calls = _calls(state, rid)
        assert len(calls) >= 8, f"{mode}: the untouched run recorded only {len(calls)} calls"
        assert '"got": "v1"' in out and '"n": 2' in out, f"{mode}: the untouched run printed\n{out}"
        _BASELINE[key] = (out, calls)
    return _BASELINE[key]


def _check_family(v, family):
    tamper = TAMPERS[family]
    for mode, flags in MODES:
        base_out, base = _baseline(v, mode, flags)
        for before in (True, False):
            where = f"{mode}, {family}, tampered {'before the handler' if before else 'after the first effect'}"
            with tempfile.TemporaryDirectory() as tmp:
                try:
                    state, agent, rid, out = _run(v, tmp, tamper, before, flags)
                except AssertionError as e:
                    raise AssertionError(f"{where}: {e}")
                assert out == base_out, f"{where}: printed\n{out}\nuntouched it printed\n{base_out}"
                calls = _calls(state, rid)
                assert calls == base, (f"{where}: the call log differs from the untouched run's:\n" +
                                       "\n".join(calls) + "\n--- untouched:\n" + "\n".join(base))
                code, out2, err2 = chidori(v, "replay", *flags, agent, rid, state=state)
                assert code == 0 and out2 == out, f"{where}: replay exit {code}\n{out2}\n{err2[-2000:]}"


# one case per family, so a failure names the family
for _family in TAMPERS:
    def _case(v, _family=_family):
        _check_family(v, _family)
    _case.__doc__ = f"Tampering with {_family} leaves effects, the call log, replay and output unchanged."
    _case.__name__ = "case_primordials_" + _family
    globals()[_case.__name__] = _case
del _case, _family
