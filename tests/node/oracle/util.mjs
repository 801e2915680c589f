// Oracle: node:util — format, inspect layout and options, types, promisify/callbackify, inherits,
// isDeepStrictEqual.
import util, { inspect, format, promisify, callbackify, types, isDeepStrictEqual } from "node:util";
import * as bareUtil from "util";
import * as utilTypes from "util/types";

const attempt = (f) => {
  try { return { ok: f() }; } catch (e) { return { name: e.name, message: e.message, code: e.code }; }
};
const noStack = (e) => { e.stack = ""; return e; };

export async function agent() {
  const out = {};
  out.shape = [bareUtil.default === util, utilTypes.default === types, util.inspect.custom === Symbol.for("nodejs.util.inspect.custom"),
    util.promisify.custom === Symbol.for("nodejs.util.promisify.custom"), util.TextEncoder === TextEncoder, util.TextDecoder === TextDecoder,
    inspect.defaultOptions];

  out.format = [
    format("%s:%s", "a"), format("%s", "a", "b", 3), format("%d + %i = %f", "1.5", 2.7, "3.25x"), format("%j", { a: [1, "x"] }),
    format("%o", [1, { a: 2 }]), format("%O", { a: { b: { c: { d: 1 } } } }), format("100%% %s %c done", "sure", "css"), format("%x %s", 1),
    format("%s", null), format("%s", undefined), format("%s", 10n), format("%d", 10n), format("%i", "42.9abc"), format("%d", {}),
    format("%s", Symbol("s")), format("%d", Symbol("s")), format("%s", [1, [2, [3]]]), format("%s", { a: { b: 1 } }), format("%s", -0),
    format("%s", { toString() { return "custom"; } }), format("%s", new Date(0)), format("%s", noStack(new Error("e"))),
    format(1, 2, "three"), format("a", { b: 1 }), format(), format("%"), format("%s"), format("trailing %"), format("%j", undefined),
    format("%s %s", "only"), format("%%s %s", "x"), format("%s", "a\nb"), format({ a: 1 }, "str"), format("%s", class Foo {}),
    format("%s", function named() {}), format("%i", -0.5), format("%f", "abc"), format("%d", ""),
  ];
  const circ = { a: 1 };
  circ.self = circ;
  out.formatCircular = format("%j", circ);

  class Foo { constructor() { this.x = 1; } }
  class Empty {}
  class Base {}
  class Derived extends Base {}
  const sym = Symbol("sym");
  const nested = { l1: { l2: { l3: { l4: { l5: 1 } } } } };
  const longArr = Array.from({ length: 26 }, (_, i) => "word" + i);
  const getters = {
    get g() { return 42; }, set s(v) {}, get gs() { return { deep: true }; }, set gs(v) {},
  };
  const tagged = { [Symbol.toStringTag]: "Custom", a: 1 };
  class Tagged { get [Symbol.toStringTag]() { return "TT"; } }
  const withCustom = { [inspect.custom](depth, options) { return "CUSTOM<" + depth + "," + typeof options.stylize + ">"; } };
  const customObj = { inner: { [inspect.custom]() { return { replaced: true }; } } };
  const multiline = { x: { [inspect.custom]() { return "line1\nline2"; } } };
  const arr = [1, 2, 3];
  arr.extra = "yes";
  const sparse = [1, , 3];
  sparse.length = 6;
  const nullProtoArr = Object.setPrototypeOf([1, 2], null);
  const err = noStack(new TypeError("bad thing"));
  err.code = "E_BAD";
  const errCause = noStack(new Error("outer", { cause: noStack(new Error("inner")) }));
  const errNoMsg = noStack(new RangeError());
  class MyError extends Error {}
  const myErr = noStack(new MyError("mine"));
  const errNamed = noStack(new Error("renamed"));
  errNamed.name = "CustomName";
  const values = [
    1, -0, 1.5, NaN, -Infinity, 123456789n, true, undefined, null, "str", "it's", "say \"hi\" it's", "`all` 'three' \"q\"",
    "\x00\x08\x1b\x7f\u0085", "lone \ud800 surrogate", "emoji 😀", Symbol("desc"), Symbol(), Symbol.iterator,
    [], {}, [[]], [{}], { a: [] }, [1, "two", [3, [4, [5]]]], nested, { a: { b: { c: {} } } },
    new Foo(), new Empty(), new Derived(), Foo, Empty, Derived, class {}, function namedFn() {}, function () {}, () => {},
    async function af() {}, function* gf() {}, async function* agf() {}, Math.max,
    new Map(), new Set(), new Map([[{ k: 1 }, new Set([1])], ["s", null]]), new Set([[1, 2], "x"]),
    new Date(0), new Date(NaN), /ab+c/gi, new RegExp("a/b"), Object.assign(/x/, { extra: 1 }), Object.assign(new Date(0), { d: 1 }),
    new Number(-0), new String("boxed"), new Boolean(true), Object(Symbol("bs")), Object(5n), Object.assign(new String("ab"), { p: 1 }),
    Object.create(null), Object.assign(Object.create(null), { n: 1 }), nullProtoArr, Object.create(Object.create(null)),
    new Uint8Array(3), new Int16Array([-1, 2]), new Float32Array([0.5]), new BigInt64Array([5n]), new Uint8Array(0),
    new ArrayBuffer(4), new DataView(new ArrayBuffer(2), 1), Buffer.from("buffer"), Buffer.alloc(60),
    new WeakMap(), new WeakSet(), arr, sparse, [, ,], longArr, Array.from({ length: 120 }, (_, i) => i * 7),
    Array.from({ length: 8 }, (_, i) => ({ i })), Array.from({ length: 10 }, (_, i) => "x".repeat(i)), [1.5, -2, 300000, 4e21, 5, 6, 7],
    [1n, 22n, 333n, 4444n, 5n, 6n, 7n], getters, tagged, new Tagged(), withCustom, customObj, multiline,
    { "key with space": 1, "valid_id": 2, "1abc": 3, 42: 4, "": 5, [sym]: 6, "__proto__x": 7, "ünï": 8, "a\nb": 9 },
    err, errCause, errNoMsg, myErr, errNamed, [err], { e: err },
    "x".repeat(200), ["y".repeat(90)], { long: "z".repeat(100) + "\n" + "w".repeat(10) },
    { a: 1, b: "two", c: [3], d: { e: 4 }, f: null, g: undefined, h: true, i: 1n, j: Symbol("j"), k: () => 1 },
    Object.fromEntries(Array.from({ length: 30 }, (_, i) => ["key" + i, i])),
    (function () { return arguments; })(1, "a"),
  ];
  out.inspect = values.map((v) => inspect(v));
  const c1 = { name: "c1" };
  const c2 = { name: "c2", c1 };
  c1.c2 = c2;
  c1.self = c1;
  const ca = [1];
  ca.push(ca);
  const cm = new Map();
  cm.set("me", cm);
  out.circular = [inspect(c1), inspect(ca), inspect(cm), inspect([c1, c2]), inspect({ x: c1, y: c1 })];

  const opts = [
    { depth: 0 }, { depth: 1 }, { depth: null }, { depth: Infinity }, { compact: false }, { compact: true }, { compact: 1 },
    { breakLength: 20 }, { breakLength: Infinity }, { sorted: true }, { maxArrayLength: 2 }, { maxArrayLength: 0 },
    { maxStringLength: 3 }, { colors: true }, { numericSeparator: true }, { getters: true }, { showHidden: true },
    { customInspect: false }, { compact: false, breakLength: Infinity },
  ];
  const subject = {
    num: 1234567.891, big: 12345678901n, str: "a string that is fairly long", arr: [3, 1, 2, "x", null, undefined, true],
    nested: { deeper: { deepest: { bottom: [1, 2] } } }, map: new Map([["k", "v"]]), set: new Set([1]), date: new Date(0),
    re: /r/, sym: Symbol("s"), fn: function f() {}, get getter() { return "got"; }, custom: withCustom,
  };
  out.options = opts.map((o) => [JSON.stringify(o), inspect(subject, o)]);
  out.legacyArgs = [inspect({ a: { b: { c: { d: 1 } } } }, false, 0), inspect({ a: { b: { c: { d: 1 } } } }, false, null),
    inspect([1], true)];
  out.colorsTable = [inspect([1, "s", true, null, undefined, Symbol("x"), 1n, new Date(0), /r/, () => {}], { colors: true })];
  out.sortedFn = inspect({ b: 1, a: 2, c: 3 }, { sorted: (x, y) => (x < y ? 1 : -1) });

  out.types = [
    [types.isDate(new Date()), types.isDate({}), types.isDate(Object.create(Date.prototype))],
    [types.isRegExp(/x/), types.isRegExp({}), types.isRegExp(RegExp.prototype)],
    [types.isPromise(Promise.resolve()), types.isPromise({ then() {} }), types.isMap(new Map()), types.isSet(new Set()),
      types.isWeakMap(new WeakMap()), types.isWeakSet(new WeakSet()), types.isMap(new WeakMap())],
    [types.isTypedArray(new Uint8Array()), types.isTypedArray(new DataView(new ArrayBuffer(1))), types.isUint8Array(Buffer.alloc(1)),
      types.isUint8Array(new Int8Array()), types.isFloat64Array(new Float64Array()), types.isBigInt64Array(new BigInt64Array())],
    [types.isArrayBuffer(new ArrayBuffer(1)), types.isAnyArrayBuffer(new ArrayBuffer(1)), types.isArrayBuffer(new Uint8Array()),
      types.isDataView(new DataView(new ArrayBuffer(1))), types.isArrayBufferView(new DataView(new ArrayBuffer(1))),
      types.isArrayBufferView(Buffer.alloc(1)), types.isSharedArrayBuffer(new ArrayBuffer(1))],
    [types.isAsyncFunction(async () => {}), types.isAsyncFunction(() => {}), types.isAsyncFunction(async function* () {}),
      types.isGeneratorFunction(function* () {}), types.isGeneratorFunction(async function* () {}), types.isGeneratorFunction(() => {}),
      types.isGeneratorObject((function* () {})()), types.isGeneratorObject({})],
    [types.isNativeError(new TypeError()), types.isNativeError({ name: "Error", message: "" })],
    [types.isBoxedPrimitive(new Number(1)), types.isBoxedPrimitive(1), types.isNumberObject(new Number(1)), types.isStringObject(new String("")),
      types.isBooleanObject(new Boolean(false)), types.isSymbolObject(Object(Symbol())), types.isBigIntObject(Object(1n)), types.isStringObject("s")],
    [types.isMapIterator(new Map().keys()), types.isSetIterator(new Set().values()), types.isMapIterator(new Set().values()),
      types.isArgumentsObject((function () { return arguments; })()), types.isArgumentsObject([])],
    [util.isArray([]), util.isBoolean(false), util.isNull(null), util.isNullOrUndefined(undefined), util.isNumber(NaN), util.isString(""),
      util.isSymbol(Symbol()), util.isUndefined(undefined), util.isRegExp(/x/), util.isObject(null), util.isObject([]), util.isDate(new Date()),
      util.isError(new Error()), util.isFunction(() => {}), util.isPrimitive(null), util.isPrimitive({}), util.isBuffer(Buffer.alloc(0))],
  ];

  const deep = [
    [{ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }], [{ a: 1 }, { a: "1" }], [[1, 2], [1, 2, 3]], [NaN, NaN], [0, -0], [[0], [-0]],
    [new Date(0), new Date(0)], [new Date(0), new Date(1)], [/a/g, /a/g], [/a/g, /a/i], [new Map([[1, { x: 1 }]]), new Map([[1, { x: 1 }]])],
    [new Map([[{ k: 1 }, 1]]), new Map([[{ k: 1 }, 1]])], [new Set([{ a: 1 }, 2]), new Set([2, { a: 1 }])], [new Set([1]), new Set(["1"])],
    [Buffer.from("ab"), Buffer.from("ab")], [Buffer.from("ab"), new Uint8Array([97, 98])], [new Float64Array([NaN]), new Float64Array([NaN])],
    [Object.create(null), {}], [new Number(1), new Number(1)], [new Number(1), 1], [[1, , 3], [1, undefined, 3]],
    [{ [Symbol.for("s")]: 1 }, { [Symbol.for("s")]: 2 }], [new Error("x"), new Error("x")], [new Error("x"), new TypeError("x")],
    [new Foo(), { x: 1 }], [c1, c1], [{ a: undefined }, {}], [[1, 2], { 0: 1, 1: 2, length: 2 }],
  ];
  out.isDeepStrictEqual = deep.map(([a, b]) => isDeepStrictEqual(a, b));
  const cyc1 = { v: 1 };
  cyc1.me = cyc1;
  const cyc2 = { v: 1 };
  cyc2.me = cyc2;
  out.deepCycles = isDeepStrictEqual(cyc1, cyc2);

  function legacy(a, b, cb) { setTimeout(() => (a < 0 ? cb(new Error("negative")) : cb(null, a + b)), 1); }
  const p = promisify(legacy);
  out.promisify = [await p(1, 2), await p(-1, 2).catch((e) => "rejected:" + e.message), typeof p, promisify(p) === p];
  function withCustomPromisify() {}
  withCustomPromisify[promisify.custom] = () => Promise.resolve("custom result");
  out.promisifyCustom = [await promisify(withCustomPromisify)(), promisify(withCustomPromisify) === withCustomPromisify[promisify.custom]];
  out.promisifyError = attempt(() => promisify(1));
  const cbified = callbackify(async (x) => { if (x) throw new Error("cb fail"); return "cb ok"; });
  out.callbackify = await new Promise((resolve) => {
    const got = [];
    cbified(false, (e, v) => { got.push([e, v]); cbified(true, (e2) => { got.push(e2.message); resolve(got); }); });
  });
  const cbNull = callbackify(() => Promise.reject(null));
  out.callbackifyFalsy = await new Promise((resolve) => cbNull((e) => resolve([e.message, e.code, e.reason])));
  out.callbackifyName = [cbified.name, cbified.length];

  function Animal(n) { this.n = n; }
  Animal.prototype.speak = function () { return this.n + " speaks"; };
  function Dog(n) { Animal.call(this, n); }
  util.inherits(Dog, Animal);
  out.inherits = [new Dog("rex").speak(), Dog.super_ === Animal, new Dog("x") instanceof Animal, attempt(() => util.inherits(Dog, null))];
  const dep = util.deprecate((x) => x * 2, "old api", "DEP_TEST");
  out.deprecate = [dep(2), dep(3)];
  out.misc = [util.stripVTControlCharacters("\u001b[31mred\u001b[39m"), util.toUSVString("a\ud800b"), typeof util.debuglog("x"),
    util.debuglog("x").enabled, util.styleText("red", "hi"),
    util.styleText(["bold", "red"], "x", { validateStream: false }), attempt(() => util.styleText("nocolor", "x"))];
  const ac = new AbortController();
  const ab = util.aborted(ac.signal, {});
  ac.abort();
  out.aborted = await ab.then(() => "resolved");
  // Huge sparse arrays: hole runs are summarised, never walked (a walk of 1e9 holes takes minutes).
  const huge = new Array(1e9); huge[5] = 1; huge[1e8] = 2;
  const tail = [1, , 3]; tail.length = 1e6;
  out.sparse = [inspect(new Array(1e9)), inspect(huge), inspect(tail), inspect(new Array(1e9), { maxArrayLength: 0 }),
    inspect([, , 1, , ], { maxArrayLength: 1 }), inspect(huge, { maxArrayLength: 2 }), inspect(Object.assign(new Array(5), { x: 1 }))];
  return out;
}
