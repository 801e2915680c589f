// Guest code replaces the builtins our esnext/*.js built-ins could have used, then uses those
// built-ins: their results must not change (cases_esnext.py compares with the untampered run).
// Everything is restored before returning, so only our built-ins are under test here.
import { run } from "chidori:agent";

const RealError = Error;
const boom = (what) => function () { throw new RealError("tampered " + what + " was used"); };
const RealTypeError = TypeError;
const RealRangeError = RangeError;
// (the globals are replaced too: the agent keeps its own references)
const U8 = Uint8Array;
const RealPromise = Promise;
const RealArray = Array;

const defineProperty = Object.defineProperty;
const getOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
const getPrototypeOf = Object.getPrototypeOf;
const StringOf = String;
const setPrototypeOf = Object.setPrototypeOf;

function tamper() {
  let undo = null; // a linked list: the array methods are among what gets replaced
  const replace = (obj, key, value) => {
    const d = getOwnPropertyDescriptor(obj, key);
    if (d) setPrototypeOf(d, null);
    undo = { obj, key, d, next: undo };
    defineProperty(obj, key, { __proto__: null, value, writable: true, configurable: true });
  };
  const poisonAccessor = (obj, key) => {
    const d = getOwnPropertyDescriptor(obj, key);
    if (d) setPrototypeOf(d, null);
    undo = { obj, key, d, next: undo };
    defineProperty(obj, key, { __proto__: null, get: boom("get " + StringOf(key)), set: boom("set " + StringOf(key)), configurable: true });
  };
  const gen = Object.getPrototypeOf(function* () {}).prototype;
  const setIter = Object.getPrototypeOf(new Set().values());
  const ta = Object.getPrototypeOf(Uint8Array.prototype);
  const P = Promise;
  const table = [
    [Function.prototype, ["call", "apply", "bind"]],
    [Reflect, ["apply", "construct", "ownKeys", "set"]],
    [Object, ["defineProperty", "create", "setPrototypeOf", "getOwnPropertyDescriptor", "getPrototypeOf"]],
    [Array.prototype, ["push", Symbol.iterator, "join"]],
    [Set.prototype, ["values", "has", "add", "delete", "keys", Symbol.iterator]],
    [setIter, ["next"]],
    [Map.prototype, ["get", "set", "has"]],
    [WeakMap.prototype, ["get", "set", "has"]],
    [gen, ["next", "return", "throw"]],
    [String.prototype, ["charCodeAt", "padStart", "slice"]],
    [String, ["fromCharCode"]],
    [Number.prototype, ["toString"]],
    [Number, ["isNaN"]],
    [Math, ["floor", "log2", "abs", "trunc"]],
    [Symbol, ["keyFor"]],
    [DataView.prototype, ["getUint16", "setUint16"]],
    [P, ["resolve", "reject"]],
    // (Promise.prototype.then is left alone: the prelude, not under test here, chains the
    // agent's promise with it while the agent awaits.)
  ];
  for (let i = 0; i < table.length; i++) {
    const o = table[i][0];
    const keys = table[i][1];
    for (let j = 0; j < keys.length; j++) replace(o, keys[j], boom(StringOf(keys[j])));
  }
  poisonAccessor(ta, Symbol.toStringTag);
  poisonAccessor(ta, "length");
  // descriptor fields and array indices inherited from the prototypes
  const inherited = ["get", "set", "value", "writable", "enumerable", "configurable", "0", "1", "2", "3"];
  for (let i = 0; i < inherited.length; i++) {
    poisonAccessor(inherited[i].length === 1 ? Array.prototype : Object.prototype, inherited[i]);
  }
  const globals = ["TypeError", "RangeError", "SyntaxError", "Error", "Promise", "Set", "Uint8Array", "Array", "Object", "String"];
  for (let i = 0; i < globals.length; i++) replace(globalThis, globals[i], boom(globals[i]));
  return () => {
    for (let u = undo; u; u = u.next) {
      if (u.d) defineProperty(u.obj, u.key, u.d);
      else delete u.obj[u.key];
    }
  };
}

function kind(f) {
  try { f(); return "ok"; } catch (e) { return e instanceof RealTypeError ? "TypeError" : e instanceof RealRangeError ? "RangeError" : "other: " + e; }
}

run(async () => {
  const A = new Set([1, 2, 3]);
  // the argument of a Set method is read through its own size/has/keys (observable by the spec):
  // a set-like whose members were bound before the tampering
  const setLike = (arr) => {
    const s = new Set(arr);
    return { size: arr.length, has: s.has.bind(s), keys: () => arr.values() };
  };
  const B = setLike([2, 3, 4]);
  const u8 = new Uint8Array([104, 105, 255]);
  const view = new DataView(new ArrayBuffer(4));
  const map = new Map();
  const weak = new WeakMap();
  const key = {};
  const asyncSource = (async function* () { yield 1; yield 2; })();
  let log = "";
  const Disposable = DisposableStack;
  const one = setLike([1]);
  const pair = (x) => ({ n: 0, next() { return { done: this.n >= 2, value: this.n++ ? -x : x }; } });
  const restore = tamper();
  let r;
  try {
    const res = {};
    res.a = [1, 2, 3, 4].values().map((x) => x * 2).filter((x) => x > 2).drop(1).take(5).toArray();
    res.b = Iterator.from({ next() { return { done: this.n > 2, value: this.n = (this.n || 0) + 1 }; } }).flatMap(pair).toArray();
    res.c = [1, 2, 3].values().reduce((a, b) => a + b, 0);
    res.d = [A.union(B), A.intersection(B), A.difference(B), A.symmetricDifference(B),
      A.isSubsetOf(B), A.isSupersetOf(one), A.isDisjointFrom(B)];
    res.e = [u8.toBase64(), u8.toHex(), U8.fromBase64("aGk="), U8.fromHex("abcd")];
    res.f = [RegExp.escape("a.b"), Math.sumPrecise([0.1, 0.2].values()), Math.f16round(1.337), RealError.isError(new RealTypeError())];
    view.setFloat16(0, 1.5);
    res.g = [view.getFloat16(0), map.getOrInsert("k", 1), map.getOrInsertComputed("j", () => 2), weak.getOrInsert(key, 3)];
    const stack = new Disposable();
    stack.defer(() => { log += "deferred;"; });
    stack.use({ [Symbol.dispose]() { log += "used;"; } });
    stack.dispose();
    res.h = log;
    res.i = [kind(() => [].values().take(-1)), kind(() => A.union(5)), kind(() => U8.fromHex(1)), kind(() => [].values().map(1))];
    res.j = await RealArray.fromAsync(asyncSource, (x) => x * 10);
    res.k = await RealPromise.try(() => "tried");
    r = res;
  } finally {
    restore();
  }
  // read back after the restore: Sets and typed arrays as arrays
  const plain = (v) => (v instanceof Set || v instanceof Uint8Array ? [...v] : Array.isArray(v) ? v.map(plain) : v);
  for (const k of Object.keys(r)) r[k] = plain(r[k]);
  return r;
});
