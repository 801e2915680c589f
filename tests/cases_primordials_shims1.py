"""tests/cases_primordials_shims1.py — the tampering corpus for node:util, console, node:assert,
node:querystring, node:string_decoder, node:events and node:process (docs/primordials.md).

One script exercises those modules (util.format placeholders and inspect of every kind of value,
isDeepStrictEqual, promisify/callbackify; console.table/count/time/dir/assert; assert's failures
and their messages, throws/rejects; querystring parse/stringify/escape/unescape; StringDecoder
across cut characters; EventEmitter on/once/emit/error, events.once and events.on;
process.nextTick/emitWarning/hrtime/stdout.write). It runs untouched, then once per family of
builtins with that family replaced, deleted or booby-trapped, both before the modules are first
imported and after. Every tampered run must exit 0 and print exactly what the untouched run
printed. The values the script feeds in (Maps, Sets, Buffers …) are built before the tampering:
building them is the guest's own business.

Buffers are node:buffer's (another module's conversion), so no family here tampers with
Uint8Array/Buffer methods; the StringDecoder section still runs under every other family.

With the conversion undone (e.g. util.js's `StringSlice(...)` back to `.slice(...)`), the
string_methods family fails: the script's output shows the tampered method's error.
"""
import tempfile

from tamper_corpus import check_family, eval_placeholders

BODY = r"""
const BEFORE = %BEFORE%;
function tamper() {
%TAMPER%
}
// the guest's own values, built before any tampering
const data = {
  map: new Map([["k", { v: 1 }], [2, [1, 2]]]),
  set: new Set([1, "two", { three: 3 }]),
  nested: { a: { b: { c: { d: { e: 1 } } } }, arr: [1, 2, 3], s: "it's \"q\"\n", n: -0, big: 12n },
  sparse: [1, , 3],
  huge: new Array(1e9),
  longArr: Array.from({ length: 30 }, (_, i) => i * 3),
  err: new TypeError("bad thing"),
  date: new Date(0),
  re: /a+b/gi,
  sym: Symbol("s"),
  fn: function named() {},
  cls: class K {},
  boxed: [new Number(3), new String("str"), new Boolean(false)],
  typed: new Uint8Array([1, 2, 3]),
  nullProto: Object.create(null),
  withGetter: Object.defineProperty({}, "g", { get() { return 1; }, enumerable: true }),
  longStr: "x".repeat(40) + "\n" + "y".repeat(40),
  tableRows: [{ a: 1, b: "x" }, { a: 2, c: true }, 7],
  mapA: new Map([[1, { a: [1] }]]), mapB: new Map([[1, { a: [1] }]]),
  setA: new Set([{ a: 1 }]), setB: new Set([{ a: 2 }]),
  ranged: new RangeError("ranged"),
  typeX: new TypeError("x"), typeXyz: new TypeError("xyz"),
  map13: new Map([[1, 3]]),
  thrower() { throw data.ranged; },
};
// the guest's own tools, kept before the tampering
const GuestPromise = Promise, resolved = Promise.resolve.bind(Promise), rejected = Promise.reject.bind(Promise);
const later = setTimeout, GuestRangeError = RangeError, GuestTypeError = TypeError;
data.circular = { name: "c" };
data.circular.self = data.circular;
data.nullProto.x = 1;
const apply = Reflect.apply, log = console.log;
const print = (...a) => apply(log, console, a);
(async () => {
  // node:buffer, internal/text (which buffer loads) and internal/abort (AbortController's) are
  // other modules' conversions: they are loaded, and the Buffers made, before the tampering
  const { Buffer } = await import("node:buffer");
  if (typeof AbortController !== "function") throw new Error("no AbortController");
  const euro = Buffer.from("h\u00e9llo \u20ac");
  const cuts = [euro.subarray(0, 2), euro.subarray(2, 9), euro.subarray(9)];
  if (BEFORE) tamper();
  const util = (await import("node:util")).default;
  const assert = (await import("node:assert")).default;
  const qs = (await import("node:querystring")).default;
  const { StringDecoder } = await import("node:string_decoder");
  const EventEmitter = (await import("node:events")).default;
  const proc = (await import("node:process")).default;
  if (!BEFORE) tamper();
  const section = async (name, f) => {
    try { await f(); } catch (e) { print(name + " threw:", e && e.message); }
  };
  await section("format", () => {
    print(util.format("%s=%d %i %f %j %o %O %% %c|", "n", 42, "12.7", "1.5", { j: [1] }, [1, { a: 2 }], { O: 1 }, "css"));
    print("%s and %s", "one", { two: 2 }, data.sym, 3n);
    print(data.nested, data.sparse, data.huge, data.longArr);
    print(data.map, data.set, data.circular, data.nullProto, data.withGetter);
    print(data.err.name, util.inspect(data.err, { depth: 0 }).length > 0, data.date, data.re, data.sym, data.fn, data.cls);
    print(data.boxed, data.typed, data.longStr);
    print(util.inspect(data.nested, { depth: 0 }), util.inspect(data.nested, { depth: Infinity, breakLength: 40 }));
    print(util.inspect(data.nested, { compact: false, sorted: true }), util.inspect(data.withGetter, { getters: true }));
    print(util.inspect(data.map, { showHidden: true }), util.inspect("x", { colors: true }) === "\u001b[32m'x'\u001b[39m");
    print(util.inspect({ a: 1234567.891 }, { numericSeparator: true }), util.inspect(data.longArr, { maxArrayLength: 4 }));
    print(util.isDeepStrictEqual(data.mapA, data.mapB), util.isDeepStrictEqual(data.setA, data.setB),
      util.isDeepStrictEqual([1, { a: data.date }], [1, { a: data.date }]), util.types.isMap(data.map), util.types.isRegExp(data.re));
    print(util.stripVTControlCharacters("\u001b[31mred\u001b[39m"), util.toUSVString("a\ud800b"));
  });
  await section("promisify", async () => {
    const p = util.promisify((a, cb) => cb(null, a * 2));
    print("promisified", await p(21));
    const cbf = util.callbackify(async (x) => x + 1);
    await new GuestPromise((resolve) => cbf(1, (err, v) => { print("callbackified", err, v); resolve(); }));
  });
  await section("console", () => {
    console.table(data.tableRows);
    console.table(data.map);
    console.table(data.set);
    console.count(); console.count("x"); console.count(); console.countReset("x"); console.count("x");
    console.time("t"); console.timeEnd("t");
    console.group("g"); print("inside"); console.groupEnd();
    console.assert(false, "bad %s", "thing");
    console.dir(data.nested, { depth: 0 });
  });
  await section("assert", async () => {
    const fails = [
      () => assert.strictEqual(1, 2),
      () => assert.deepStrictEqual({ a: [1, 2, 3], b: "x" }, { a: [1, 2, 4], b: "x" }),
      () => assert.deepEqual(data.mapA, data.map13),
      () => assert.notStrictEqual(1, 1),
      () => assert.ok(0),
      () => assert.throws(() => { throw data.typeX; }, GuestRangeError),
      () => assert.throws(() => { throw data.typeXyz; }, { message: "nope" }),
      () => assert.match("abc", /d/),
      () => assert.equal(),
      () => assert.ifError(data.err),
      () => assert.strict.equal(1, "1"),
    ];
    for (let i = 0; i < fails.length; i++) {
      try { fails[i](); print("assert", i, "did not throw"); } catch (e) {
        print("assert", i, e.name, e.code, e.message, e.generatedMessage, e.operator);
      }
    }
    assert.throws(data.thrower, GuestRangeError);
    // a thrown primitive: String() of an Error would call its (the guest's) toString, as in Node
    assert.throws(() => { throw "ranged text"; }, /ranged/);
    assert.deepStrictEqual(data.mapA, data.mapB);
    await assert.rejects(() => rejected(data.err), GuestTypeError);
    try { await assert.rejects(resolved(1)); } catch (e) { print("rejects:", e.message); }
    print("assert passes");
  });
  await section("querystring", () => {
    print(qs.parse("a=1&b=2&a=3+4&c=%41%zz&d"), qs.stringify({ a: [1, 2], b: "x y", c: true, d: null }));
    print(qs.escape("a b&c"), qs.unescape("%E4%B8%AD+x"), qs.parse("x:1;y:2", ";", ":", { maxKeys: 1 }));
  });
  await section("string_decoder", () => {
    const d = new StringDecoder("utf8");
    print(d.write(cuts[0]) + "|" + d.write(cuts[1]) + "|" + d.end(cuts[2]), d.lastNeed);
    const h = new StringDecoder("hex");
    print(h.write(cuts[0]), h.encoding);
  });
  await section("events", async () => {
    const e = new EventEmitter();
    e.on("x", (a, b) => print("x", a, b));
    e.once("x", () => print("once"));
    e.prependListener("x", () => print("first"));
    e.emit("x", 1, 2); e.emit("x", 3, 4);
    print(e.eventNames(), e.listenerCount("x"), e.listeners("x").length, e.rawListeners("x").length);
    e.removeAllListeners("x");
    try { e.emit("error", data.err); } catch (err) { print("error event threw", err === data.err); }
    try { e.emit("error", "plain"); } catch (err) { print("error event threw", err.code); }
    later(() => e.emit("y", 9), 1);
    const got = await EventEmitter.once(e, "y");
    print("once got", got);
    const it = EventEmitter.on(e, "z");
    later(() => { e.emit("z", 1); e.emit("z", 2); }, 1);
    const first = await it.next();
    const second = await it.next();
    await it.return();
    print("on got", first.value, second.value);
    e.setMaxListeners(1);
    e.on("m", () => {}); e.on("m", () => {});
  });
  await section("process", async () => {
    await new GuestPromise((resolve) => proc.nextTick((a, b) => { print("tick", a, b); resolve(); }, 1, 2));
    proc.emitWarning("careful", "CustomWarning", "C1");
    print(typeof proc.hrtime()[0], typeof proc.hrtime.bigint(), proc.platform, proc.env, proc.version);
    proc.stdout.write("stdout line\n");
    try { proc.exit(1); } catch (err) { print("exit refused", err.code); }
  });
  print("done");
})().catch((e) => console.log("FAILED", e && e.message));
"""

TAMPERS = {
    "string_methods": """
  const names = ["slice", "substring", "substr", "indexOf", "lastIndexOf", "includes", "startsWith", "endsWith", "repeat",
    "padStart", "padEnd", "charCodeAt", "codePointAt", "charAt", "toUpperCase", "toLowerCase", "normalize", "split",
    "replace", "replaceAll", "match", "trim", "concat", "at"];
  for (let i = 0; i < names.length; i++) {
    const k = names[i];
    String.prototype[k] = function () { throw new Error("String.prototype." + k + " tampered"); };
  }
  String.fromCharCode = () => { throw new Error("String.fromCharCode tampered"); };""",
    "regexp": """
  for (const k of ["exec", "test", "toString", Symbol.replace, Symbol.split, Symbol.match, Symbol.matchAll, Symbol.search])
    RegExp.prototype[k] = function () { throw new Error("RegExp.prototype." + String(k) + " tampered"); };
  for (const k of ["source", "flags", "global", "sticky", "unicode"])
    Object.defineProperty(RegExp.prototype, k, { get() { throw new Error("RegExp getter " + k + " tampered"); }, configurable: true });""",
    "array_methods": """
  const names = ["push", "pop", "shift", "unshift", "splice", "slice", "join", "map", "filter", "concat", "includes",
    "indexOf", "sort", "findIndex", "find", "forEach", "fill", "some", "every", "reduce", "reverse", "keys", "values", "entries"];
  const ArrayIteratorProto = Object.getPrototypeOf([][Symbol.iterator]());
  for (let i = 0; i < names.length; i++) {
    const k = names[i];
    Array.prototype[k] = function () { throw new Error("Array.prototype." + k + " tampered"); };
  }
  Array.prototype[Symbol.iterator] = function () { throw new Error("array iterator tampered"); };
  ArrayIteratorProto.next = function () { throw new Error("array iterator next tampered"); };
  Array.isArray = () => { throw new Error("Array.isArray tampered"); };
  Array.from = () => { throw new Error("Array.from tampered"); };""",
    "array_setters": """
  for (let i = 0; i < 8; i++) {
    const k = String(i);
    Object.defineProperty(Array.prototype, k, { set() { throw new Error("Array.prototype setter " + k); }, configurable: true });
  }""",
    "object_statics": """
  const names = ["keys", "values", "entries", "getOwnPropertyNames", "getOwnPropertySymbols", "getOwnPropertyDescriptor",
    "getOwnPropertyDescriptors", "getPrototypeOf", "setPrototypeOf", "defineProperty", "defineProperties", "create", "assign",
    "freeze", "is", "hasOwn", "isFrozen"];
  const O = Object;
  for (let i = 0; i < names.length; i++) {
    const k = names[i];
    O[k] = function () { throw new Error("Object." + k + " tampered"); };
  }
  for (const k of ["hasOwnProperty", "toString", "propertyIsEnumerable", "isPrototypeOf", "valueOf", "toLocaleString"])
    O.prototype[k] = function () { throw new Error("Object.prototype." + k + " tampered"); };""",
    "object_setters": """
  const names = ["circular", "seen", "budget", "userOptions", "depth", "stylize", "customInspect", "showHidden", "colors",
    "name", "code", "actual", "expected", "operator", "generatedMessage", "message", "a", "b", "resolve", "reject",
    "value", "done", "indentationLvl", "currentDepth", "warned", "fired", "type", "listener", "target", "wrapFn",
    "context", "encoding", "0", "1", "2", "3", "length", "grey"];
  for (let i = 0; i < names.length; i++) {
    const k = names[i];
    Object.defineProperty(Object.prototype, k, { __proto__: null, set() { throw new Error("Object.prototype setter " + k); }, configurable: true });
  }
  Object.defineProperty(Object.prototype, "get", { __proto__: null, get() { return () => { throw new Error("inherited get"); }; }, configurable: true });
  Object.defineProperty(Object.prototype, "set", { __proto__: null, get() { return () => { throw new Error("inherited set"); }; }, configurable: true });""",
    "map_set": """
  const MapIter = Object.getPrototypeOf(new Map().entries()), SetIter = Object.getPrototypeOf(new Set().values());
  for (const k of ["get", "set", "has", "delete", "forEach", "keys", "values", "entries", "clear", Symbol.iterator])
    Map.prototype[k] = function () { throw new Error("Map.prototype." + String(k) + " tampered"); };
  for (const k of ["add", "has", "delete", "forEach", "keys", "values", "entries", Symbol.iterator])
    Set.prototype[k] = function () { throw new Error("Set.prototype." + String(k) + " tampered"); };
  Object.defineProperty(Map.prototype, "size", { get() { throw new Error("Map size tampered"); }, configurable: true });
  Object.defineProperty(Set.prototype, "size", { get() { throw new Error("Set size tampered"); }, configurable: true });
  MapIter.next = function () { throw new Error("map iterator next tampered"); };
  SetIter.next = function () { throw new Error("set iterator next tampered"); };
  WeakMap.prototype.has = function () { throw new Error("WeakMap.has tampered"); };
  WeakSet.prototype.has = function () { throw new Error("WeakSet.has tampered"); };""",
    "number_math": """
  for (const k of ["min", "max", "floor", "ceil", "round", "sqrt", "abs", "trunc"])
    Math[k] = function () { throw new Error("Math." + k + " tampered"); };
  for (const k of ["isNaN", "isFinite", "isInteger", "parseInt", "parseFloat"])
    Number[k] = function () { throw new Error("Number." + k + " tampered"); };
  for (const k of ["toString", "toFixed", "toPrecision", "valueOf"])
    Number.prototype[k] = function () { throw new Error("Number.prototype." + k + " tampered"); };
  for (const k of ["parseInt", "parseFloat", "isNaN", "isFinite"])
    globalThis[k] = function () { throw new Error(k + " tampered"); };""",
    "functions_reflect_json": """
  const F = Function.prototype;
  for (const k of ["call", "apply", "bind", "toString"])
    F[k] = function () { throw new Error("Function.prototype." + k + " tampered"); };
  for (const k of ["apply", "construct", "ownKeys", "has", "get", "defineProperty", "getPrototypeOf"])
    Reflect[k] = function () { throw new Error("Reflect." + k + " tampered"); };
  JSON.stringify = () => '"forged"';
  JSON.parse = () => ({ forged: true });
  Symbol.for = () => Symbol("forged");
  for (const C of [Error, TypeError, RangeError, Map, Set, RegExp, Date, Promise, Array, Object, Function])
    Object.defineProperty(C, Symbol.hasInstance, { value: () => { throw new Error("Symbol.hasInstance tampered"); }, configurable: true });""",
    "globals": """
  const E = Error;
  for (const k of ["String", "Number", "Boolean", "BigInt", "Symbol", "Object", "Array", "Map", "Set", "WeakMap", "WeakSet",
    "Error", "TypeError", "RangeError", "URIError", "RegExp", "Date", "Promise", "Uint8Array", "ArrayBuffer", "DataView",
    "Math", "JSON", "Reflect", "encodeURIComponent", "decodeURIComponent"])
    globalThis[k] = function () { throw new E("global " + k + " tampered"); };""",
    "promises": """
  const then = Promise.prototype.then;
  const kept = [];
  Promise.prototype.then = function (f, r) {
    if (typeof f === "function") kept.push(f);
    return Reflect.apply(then, this, [f, r]);
  };
  Promise.prototype.catch = function () { throw new Error("catch tampered"); };
  Promise.prototype.finally = function () { throw new Error("finally tampered"); };
  Promise.resolve = () => { throw new Error("Promise.resolve tampered"); };
  Promise.reject = () => { throw new Error("Promise.reject tampered"); };
  Promise.all = () => { throw new Error("Promise.all tampered"); };""",
    "prototype_values": """
  for (const [P, ks] of [[Date.prototype, ["getTime", "toISOString", "toString", "valueOf"]], [Error.prototype, ["toString"]],
      [Symbol.prototype, ["toString", "valueOf"]], [Boolean.prototype, ["valueOf", "toString"]], [BigInt.prototype, ["valueOf", "toString"]],
      [String.prototype, ["valueOf", "toString"]]])
    for (const k of ks) P[k] = function () { throw new Error(k + " tampered"); };
  for (const [P, k] of [[ArrayBuffer.prototype, "byteLength"], [DataView.prototype, "byteLength"]])
    Object.defineProperty(P, k, { get() { throw new Error(k + " tampered"); }, configurable: true });""",
}


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
        for expected in ("n=42 12 1.5", "[ <1000000000 empty items> ]", "<ref *1>", "│ (index) │", "assert 0 AssertionError",
                         "h|\u00e9llo |\u20ac 0", "once got [ 9 ]", "on got [ 1 ] [ 2 ]", "tick 1 2", "promisified 42"):
            assert expected in out, f"the untouched run lacks {expected!r}:\n{out}"
        _BASELINE[v.name] = (out, err)
    return _BASELINE[v.name]


def _check_family(v, family):
    check_family(v, family, lambda tmp, before: _eval(v, tmp, TAMPERS[family], before), _baseline(v))


for _family in TAMPERS:
    def _case(v, _family=_family):
        _check_family(v, _family)
    _case.__doc__ = f"Tampering with {_family} leaves util, console, assert, querystring, string_decoder, events and process output unchanged."
    _case.__name__ = "case_primordials_shims1_" + _family
    globals()[_case.__name__] = _case
del _case, _family
