"""tests/cases_node_utilgrp.py — the util group's additions of issue 24 item 7 under tampering:
node:console's Console class, util.inspect of promises, Map/Set iterators and null-prototype
values (read from the engine), coded errors' String() and inspect.colors' aliases.

One script exercises them untouched, then once per family of builtins of
tests/cases_primordials_shims1.py (replaced, deleted or booby-trapped), both before node:util,
node:console and node:events are first imported and after. Every tampered run must exit 0 and
print exactly what the untouched run printed. The values inspected (promises, iterators, maps)
are built before the tampering: building them is the guest's own business. What these print is
compared with Node itself by tests/node/oracle/{console_class,util_promise_iterators,
util_null_proto_events,util_coded_errors}.mjs; this file guards only against tampering.
"""
import tempfile

from tamper_corpus import check_family, eval_placeholders
from cases_primordials_shims1 import TAMPERS

BODY = r"""
const BEFORE = %BEFORE%;
// the guest's own values, built before any tampering
const stock = new Map([["apples", 3], ["pears", { crates: [1, 2] }]]);
const tags = new Set(["red", "ripe"]);
const data = {
  settled: Promise.resolve({ plan: ["a", "b"] }),
  failed: Promise.reject(7),
  waiting: new Promise(() => {}),
  keys: stock.keys(), entries: stock.entries(), values: tags.values(), setEntries: tags.entries(),
  bareSet: Object.setPrototypeOf(new Set([1, 2]), null),
  bareMap: Object.setPrototypeOf(new Map([[1, 2]]), null),
  bareBytes: Object.setPrototypeOf(new Uint8Array([4, 5]), null),
  text: "",
};
data.failed.catch(() => {});
data.entries.next();
// (the guest's own code below uses no builtin a family tampers with: strings are joined with +)
const sink = { write: (t) => { data.text += t; return true; }, once() {}, removeListener() {}, listenerCount: () => 0 };
const apply = Reflect.apply, log = console.log;
const print = (...a) => apply(log, console, a);
(async () => {
  // internal/text and internal/abort (loaded by node:buffer and AbortController) are other
  // modules' conversions, loaded before the tampering as tests/cases_primordials_shims1.py does
  await import("node:buffer");
  if (typeof AbortController !== "function") throw new Error("no AbortController");
  if (BEFORE) tamper();
  const util = (await import("node:util")).default;
  const { Console } = await import("node:console");
  const EventEmitter = (await import("node:events")).default;
  if (!BEFORE) tamper();
  const section = async (name, f) => {
    try { await f(); } catch (e) { print(name + " threw:", e && e.message); }
  };
  await section("inspect", () => {
    print(util.inspect(data.settled), util.inspect(data.failed), util.inspect(data.waiting));
    print(util.inspect(data.keys), util.inspect(data.entries), util.inspect(data.values), util.inspect(data.setEntries));
    print(util.inspect(data.keys, { maxArrayLength: 1 }), util.inspect({ deep: { deeper: data.values } }, { depth: 1 }));
    print(util.inspect(data.bareSet), util.inspect(data.bareMap), util.inspect(data.bareBytes));
    print(util.types.isPromise(data.settled), util.types.isMapIterator(data.keys), util.types.isSetIterator(data.values),
      util.types.isSet(data.bareSet));
    print(util.inspect.colors.grey, util.inspect.colors.crossedOut, util.inspect("x", { colors: true }) === "\u001b[32m'x'\u001b[39m");
  });
  await section("errors", () => {
    const bus = new EventEmitter();
    try { bus.on("x", 5); } catch (e) { print(e.toString()); print(util.inspect(e)); }
    try { bus.emit("error", "gone"); } catch (e) { print(e.toString()); }
    print(EventEmitter.prototype.on.name);
  });
  await section("console", () => {
    const c = new Console({ stdout: sink, groupIndentation: 3, inspectOptions: { depth: 0 } });
    c.log("%s has %d", "crate", 4, { deep: { x: 1 } });
    c.group("g");
    c.warn("inside\nlines");
    c.table([{ sku: "a", qty: 1 }]);
    c.groupEnd();
    c.count(); c.count();
    c.assert(false, "bad %s", "thing");
    c.dir({ a: { b: 1 } }, { depth: 0 });
    const { log: bound } = c;
    bound("bound");
    try { new Console({}); } catch (e) { print(e.toString()); }
    print("console wrote:\n" + data.text);
  });
  print("done");
})().catch((e) => console.log("FAILED", e && e.message));
// last, so that each family's lines leave the line numbers of the printed stacks as they were
function tamper() {
%TAMPER%
}
"""


def _eval(v, tmp, tamper, before):
    return eval_placeholders(v, tmp, BODY, tamper, before)


_BASELINE = {}


def _baseline(v):
    if v.name not in _BASELINE:
        with tempfile.TemporaryDirectory() as tmp:
            code, out, err = _eval(v, tmp, "", True)
        assert code == 0, f"untouched run: exit {code}\n{out}\n{err[-2000:]}"
        assert out.rstrip().endswith("done"), f"the untouched run did not finish:\n{out}"
        assert " threw:" not in out and "FAILED" not in out, f"the untouched run failed a section:\n{out}"
        for expected in ("Promise { { plan: [ 'a', 'b' ] } } Promise { <rejected> 7 } Promise { <pending> }",
                         "[Map Iterator] { 'apples', 'pears' } [Map Entries] { [ 'pears', { crates: [ 1, 2 ] } ] }",
                         "[Set(2): null prototype] { 1, 2 }", "TypeError [ERR_INVALID_ARG_TYPE]: The \"listener\"",
                         "Error [ERR_UNHANDLED_ERROR]: Unhandled error. ('gone')", "addListener",
                         "crate has 4 { deep: [Object] }", "   inside\n   lines", "ERR_CONSOLE_WRITABLE_STREAM"):
            assert expected in out, f"the untouched run lacks {expected!r}:\n{out}"
        _BASELINE[v.name] = (out, err)
    return _BASELINE[v.name]


def _check_family(v, family):
    check_family(v, family, lambda tmp, before: _eval(v, tmp, TAMPERS[family], before), _baseline(v))


for _family in TAMPERS:
    def _case(v, _family=_family):
        _check_family(v, _family)
    _case.__doc__ = (f"Tampering with {_family} leaves node:console, inspect of promises/iterators/null-prototype "
                     "values and coded errors unchanged.")
    _case.__name__ = "case_node_utilgrp_tamper_" + _family
    globals()[_case.__name__] = _case
del _case, _family
