// tests/builtins/corpus-driver.js — the generated builtins corpus (issue 23, "Must show").
//
// Owns: the list of every builtin function reachable from globalThis (constructors, their
// statics, prototype methods, getters and setters, and the hidden intrinsics such as
// %TypedArray% and the iterator prototypes), and the hammering of ONE of them with huge or
// hostile arguments in an endless loop. Trusts nothing it calls: every call is wrapped in
// try/catch, so only the engine's uncatchable limit errors (deadline, CPU budget, memory,
// allocation cap) can end the run. tests/cases_builtins_corpus.py drives it.
//
// Input: {list: true} returns the names (the run's JSON output); {target: NAME} hammers NAME
// and never returns. Deterministic: the same target makes the same calls in the same order.

// Host effects and console output are not engine builtins: they are skipped.
const SKIP_GLOBALS = new Set(["console", "fetch", "chidori"]);

const ownKeys = Reflect.ownKeys, getDesc = Reflect.getOwnPropertyDescriptor;
const apply = Reflect.apply, construct = Reflect.construct, getProto = Reflect.getPrototypeOf;

function keyName(k) {
  return typeof k === "symbol" ? `[${String(k.description)}]` : /^[A-Za-z_$][\w$]*$/.test(k) ? `.${k}` : `[${JSON.stringify(k)}]`;
}

// Hidden intrinsics: not reachable by a property path from globalThis.
function hiddenRoots() {
  const roots = [];
  const add = (name, get) => { try { const v = get(); if (v) roots.push([name, v]); } catch (e) { /* absent */ } };
  add("%TypedArray%", () => getProto(Int8Array));
  add("%IteratorPrototype%", () => getProto(getProto([][Symbol.iterator]())));
  add("%ArrayIteratorPrototype%", () => getProto([][Symbol.iterator]()));
  add("%StringIteratorPrototype%", () => getProto(""[Symbol.iterator]()));
  add("%MapIteratorPrototype%", () => getProto(new Map()[Symbol.iterator]()));
  add("%SetIteratorPrototype%", () => getProto(new Set()[Symbol.iterator]()));
  add("%RegExpStringIteratorPrototype%", () => getProto(/a/[Symbol.matchAll]("")));
  add("%GeneratorFunction%", () => getProto(function* () {}).constructor);
  add("%AsyncFunction%", () => getProto(async function () {}).constructor);
  add("%AsyncGeneratorFunction%", () => getProto(async function* () {}).constructor);
  add("%GeneratorPrototype%", () => getProto(function* () {}).prototype);
  add("%AsyncGeneratorPrototype%", () => getProto(async function* () {}).prototype);
  add("%AsyncIteratorPrototype%", () => getProto(getProto(async function* () {}).prototype));
  add("%ThrowTypeError%", () => getDesc(Function.prototype, "caller").get);
  return roots;
}

// name -> {fn, holder, kind: "call" | "get" | "set"}
function enumerate() {
  const found = new Map(), seenObj = new Set(), seenFn = new Set();
  const queue = [];
  seenObj.add(globalThis);
  for (const k of ownKeys(globalThis)) {
    if (typeof k === "string" && SKIP_GLOBALS.has(k)) continue;
    queue.push([keyName(k).replace(/^\./, ""), globalThis, k]);
  }
  for (const [name, v] of hiddenRoots()) {
    if (typeof v === "function" && !seenFn.has(v)) { seenFn.add(v); found.set(name, {fn: v, holder: globalThis, kind: "call"}); }
    queue.push([name, null, v]);
  }
  const visit = (path, obj) => {
    if (seenObj.has(obj)) return;
    seenObj.add(obj);
    for (const k of ownKeys(obj)) queue.push([path + keyName(k), obj, k]);
  };
  while (queue.length) {
    const [name, holder, k] = queue.shift();
    if (holder === null) { if (typeof k === "object" || typeof k === "function") visit(name, k); continue; }
    let d = getDesc(holder, k);
    if (!d) continue;
    // The runtime's web globals (URL, Buffer, atob, ...) are lazy accessors on globalThis:
    // their value is the builtin.
    if (holder === globalThis && d.get) {
      try { d = {value: d.get.call(globalThis)}; } catch (e) { continue; }
    }
    for (const [kind, f] of [["get", d.get], ["set", d.set]]) {
      if (typeof f === "function" && !seenFn.has(f)) { seenFn.add(f); found.set(`${name}:${kind}`, {fn: f, holder, kind}); }
    }
    const v = d.value;
    if (typeof v === "function") {
      if (!seenFn.has(v)) { seenFn.add(v); found.set(name, {fn: v, holder, kind: "call"}); }
      visit(name, v);
    } else if (v !== null && typeof v === "object" && holder !== null) {
      visit(name, v);
    }
  }
  return found;
}

// ---------- hostile values, built on first use (the run has a small deadline) ----------

const MiB = 1 << 20;
const cache = new Map();
const lazy = (name, make) => () => { if (!cache.has(name)) cache.set(name, make()); return cache.get(name); };
const V = {
  str: lazy("str", () => "ab".repeat(2 * MiB)),                                  // 4 MiB, 8-bit
  wide: lazy("wide", () => "\u0130\u00df\u1e9e\u03a3a\u0301".repeat(MiB / 2)),   // 3 MiB of case/normalize traps
  rope: lazy("rope", () => { let r = ""; for (let i = 0; i < 4096; i++) r += "x".repeat(512) + i; return r; }),
  numText: lazy("numText", () => "9".repeat(MiB)),
  fracText: lazy("fracText", () => "0." + "1".repeat(MiB) + "e-5"),
  json: lazy("json", () => "[" + "1e308,\"ab\\u0041\",{\"k\":[]},".repeat(MiB / 16) + "0]"),
  dateText: lazy("dateText", () => "2000-01-01T00:00:00.000" + "0".repeat(4 * MiB) + "Z"),
  uriText: lazy("uriText", () => "%41%E2%82%AC".repeat(MiB / 4)),
  big: lazy("big", () => (1n << 500000n) - 12345n),
  bigText: lazy("bigText", () => "0x" + "f".repeat(MiB / 8)),
  arr: lazy("arr", () => { const a = []; for (let i = 0; i < MiB / 4; i++) a.push(i); return a; }),
  arrayLike: lazy("arrayLike", () => ({length: 2 ** 32 - 1, 0: 1})),
  arrayLike53: lazy("arrayLike53", () => ({length: 2 ** 53 - 1})),
  typed: lazy("typed", () => new Float64Array(2 * MiB)),
  bytes: lazy("bytes", () => new Uint8Array(16 * MiB)),
  buffer: lazy("buffer", () => new ArrayBuffer(16 * MiB)),
  proxy: lazy("proxy", () => {
    const keys = []; for (let i = 0; i < 50000; i++) keys.push("k" + i);
    return new Proxy({}, {ownKeys: () => keys, getOwnPropertyDescriptor: () => ({value: 1, enumerable: true, configurable: true, writable: true})});
  }),
  deep: lazy("deep", () => { let o = {}; for (let i = 0; i < 5000; i++) o = {o, a: [o]}; return o; }),
  wideObj: lazy("wideObj", () => { const o = {}; for (let i = 0; i < 30000; i++) o["p" + i] = i; return o; }),
  regexBig: lazy("regexBig", () => new RegExp("(?:a|b|[c-z]+)?".repeat(20000), "g")),
  regexSource: lazy("regexSource", () => "(a|b)*c?[\\s\\S]{0,9}".repeat(50000)),
  regexRedos: lazy("regexRedos", () => /^(a+)+$/),
  redosText: lazy("redosText", () => "a".repeat(40) + "!"),
  map: lazy("map", () => { const m = new Map(); for (let i = 0; i < 50000; i++) m.set(i, i); return m; }),
  set: lazy("set", () => { const s = new Set(); for (let i = 0; i < 50000; i++) s.add("s" + i); return s; }),
  manyArgs: lazy("manyArgs", () => { const a = []; for (let i = 0; i < 60000; i++) a.push(65 + (i % 26)); return a; }),
  fn: lazy("fn", () => function (x) { return x; }),
};
const N = {u32: 2 ** 32 - 1, i31: 2 ** 31 - 1, s53: 2 ** 53 - 1, hundred: 100, huge: 1e300, neg: -1};

// Argument shapes, most hostile first. Each is a function so values are built only when used.
const SHAPES = [
  () => [V.str()], () => [V.str(), V.str()], () => [V.wide()], () => [V.rope()], () => [V.rope(), V.wide()],
  () => [V.big()], () => [V.big(), V.big()], () => [V.big(), 3n], () => [N.i31, V.big()], () => [V.bigText()],
  () => [V.numText()], () => [V.fracText()], () => [V.json()], () => [V.dateText()], () => [V.uriText()],
  () => [V.arr()], () => [V.arrayLike()], () => [V.arrayLike53()], () => [V.typed()], () => [V.bytes()],
  () => [V.buffer()], () => [V.proxy()], () => [V.wideObj()], () => [V.deep()], () => [V.map()], () => [V.set()],
  () => [V.regexBig(), V.str()], () => [V.regexSource(), "g"], () => [V.str(), "$&$&$`$'"],
  () => [V.fn()], () => [V.fn(), V.arr()], () => [0, N.u32], () => [N.u32], () => [N.i31, V.str()],
  () => [N.hundred], () => [N.huge], () => [N.neg, N.s53], () => V.manyArgs(), () => [],
];

// Receivers for a prototype's methods: instances of the owning class at their most hostile.
function receiversFor(holder) {
  const out = [];
  const ctor = holder && Object.prototype.hasOwnProperty.call(holder, "constructor") ? holder.constructor : null;
  const is = (C) => typeof C === "function" && holder === C.prototype;
  const add = (...f) => { for (const g of f) out.push(g); };
  if (is(String)) add(V.str, V.wide, V.rope);
  else if (is(BigInt)) add(V.big);
  else if (is(Number)) add(() => N.huge, () => 1 / 3);
  else if (is(Array)) add(V.arr, V.arrayLike, V.proxy);
  else if (holder === getProto(Int8Array).prototype) add(V.typed, V.bytes);
  else if (typeof ctor === "function" && getProto(ctor) === getProto(Int8Array)) add(lazy("ta:" + ctor.name, () => new ctor(2 * MiB)));
  else if (is(ArrayBuffer)) add(V.buffer);
  else if (is(SharedArrayBuffer)) add(lazy("sab", () => new SharedArrayBuffer(16 * MiB)));
  else if (is(DataView)) add(lazy("dv", () => new DataView(V.buffer())));
  else if (is(RegExp)) add(V.regexBig, V.regexRedos, lazy("rxAny", () => /[\s\S]/g));
  else if (is(Map)) add(V.map);
  else if (is(Set)) add(V.set);
  else if (is(Date)) add(lazy("date", () => new Date(0)));
  else if (is(Function)) add(V.fn, lazy("bound", () => V.fn().bind(null, ...V.manyArgs())));
  else if (is(Object)) add(V.proxy, V.wideObj, V.deep, V.arr);
  else if (is(Symbol)) add(lazy("sym", () => Symbol(V.str())));
  else if (is(Error)) add(lazy("err", () => new Error(V.str())));
  else if (is(Promise)) add(lazy("promise", () => Promise.resolve(1)));
  else if (typeof ctor === "function") {
    for (const args of [[], [V.str()]]) {
      try { const inst = construct(ctor, args); add(() => inst); break; } catch (e) { /* not constructible so */ }
    }
  }
  // Iterator prototypes are matched on tiny instances; the hostile receiver is built on use.
  for (const [tiny, get] of [[() => [][Symbol.iterator](), () => V.arr()[Symbol.iterator]()],
                              [() => ""[Symbol.iterator](), () => V.str()[Symbol.iterator]()],
                              [() => new Map().entries(), () => V.map().entries()],
                              [() => new Set().values(), () => V.set().values()],
                              [() => /a/g[Symbol.matchAll](""), () => /[\s\S]/g[Symbol.matchAll](V.str())]]) {
    try { if (holder === getProto(tiny())) add(get); } catch (e) { /* absent */ }
  }
  // Statics and global functions get their holder; prototype methods also the generic
  // hostile receivers (an array-like of length 2^32-1, a proxy with many keys).
  if (!ctor && !out.length) return [() => holder];
  add(() => holder, V.arrayLike, V.proxy);
  return out;
}

function isConstructor(f) {
  try { construct(function () {}, [], f); return true; } catch (e) { return false; }
}

// Calls per (receiver, shape): enough that a call charged one tick but doing ~1 ms of work
// fills several of the engine's 10,000-tick windows and overruns the deadline by > 1 s.
const REPS = 1000;

function hammer(t) {
  const recv = receiversFor(t.holder);
  const modes = t.kind === "call" && isConstructor(t.fn) ? ["new", "call"] : ["call"];
  const f = t.fn;
  for (;;) {
    for (const shape of SHAPES) {
      for (const r of recv) {
        for (const mode of modes) {
          let thisv, args;
          try { thisv = r(); args = shape(); } catch (e) { continue; }
          if (t.kind === "set") args = args.slice(0, 1);
          if (t.kind === "get") args = [];
          for (let i = 0; i < REPS; i++) {
            try {
              if (mode === "new") construct(f, args); else apply(f, thisv, args);
            } catch (e) { /* ordinary errors are expected; limit errors cannot be caught */ }
          }
        }
      }
    }
  }
}

export default async (input) => {
  const all = enumerate();
  if (input.list) return [...all.keys()];
  const t = all.get(input.target);
  if (!t) throw new Error(`no builtin named ${input.target}`);
  hammer(t);
};
