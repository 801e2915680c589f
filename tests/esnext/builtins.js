// Exercises every built-in of src/engine/js/esnext/ and returns what it saw (cases_esnext.py
// compares it with fixed values: Node 20 has none of these built-ins).
import { run } from "chidori:agent";

function desc(o, k) {
  const d = Object.getOwnPropertyDescriptor(o, k);
  if (!d) return null;
  const f = d.value ?? d.get;
  return [typeof f === "function" ? `${f.name}/${f.length}` : String(f), d.writable ?? "acc", d.enumerable, d.configurable];
}
function threw(f) {
  try { f(); return "no error"; } catch (e) { return e.constructor.name; }
}
async function rejected(p) {
  try { await p; return "fulfilled"; } catch (e) { return e.constructor.name; }
}

run(async () => {
  const out = {};
  // iterator helpers
  const closed = [];
  const counting = () => {
    let i = 0;
    return Iterator.from({ next: () => ({ value: i++, done: i > 10 }), return() { closed.push("closed"); return {}; } });
  };
  out.iter = {
    chain: counting().filter((x) => x % 2).map((x) => x * 10).drop(1).take(3).toArray(),
    flat: [1, 2].values().flatMap((x) => ["a" + x, "b" + x]).toArray(),
    reduce: [1, 2, 3, 4].values().reduce((a, b) => a + b),
    reduce0: [].values().reduce((a, b) => a + b, "init"),
    some: counting().some((x) => x === 3),
    every: [2, 4].values().every((x) => x % 2 === 0),
    find: counting().find((x) => x > 4),
    forEach: (() => { const seen = []; "xyz"[Symbol.iterator]().forEach((c, i) => seen.push(c + i)); return seen; })(),
    fromString: Iterator.from("hé").toArray(),
    concat: Iterator.concat([1], new Set([2, 3]), "ab".matchAll(/./g).map((m) => m[0])).toArray(),
    closed,
    tag: Object.prototype.toString.call([].values().map((x) => x)),
    abstract: threw(() => new Iterator()),
    subclass: new (class extends Iterator {})() instanceof Iterator,
    badLimit: threw(() => [].values().take(-1)),
    nan: threw(() => [].values().drop(NaN)),
    badMapper: threw(() => [].values().map(1)),
    brand: threw(() => Iterator.prototype.map.call(5, (x) => x)),
    helperNextBrand: threw(() => Object.getPrototypeOf([].values().map((x) => x)).next.call({})),
    desc: [desc(Iterator.prototype, "map"), desc(Iterator.prototype, "constructor"), desc(globalThis, "Iterator"),
      desc(Iterator, "prototype")],
    setters: [threw(() => { Object.getPrototypeOf(Object.getPrototypeOf([].values())).constructor = 1; }),
      (() => { const o = Object.create(Iterator.prototype); o.constructor = 5; o[Symbol.toStringTag] = "t"; return [Object.getOwnPropertyDescriptor(o, "constructor").value, String(o)]; })()],
    reentrant: (() => { let h; h = [1].values().map(() => h.next()); return threw(() => h.next()); })(),
    returnFresh: (() => { const log = []; const h = Iterator.from({ next() { log.push("next"); }, return() { log.push("return"); return {}; } }).map((x) => x); h.return(); h.next(); return log; })(),
  };
  // Set methods
  const A = new Set([1, 2, 3]);
  const B = new Set([2, 3, 4]);
  const setLike = { size: 2, has: (v) => v === 1 || v === 9, keys: () => [1, 9].values() };
  out.set = {
    union: [...A.union(B)], intersection: [...A.intersection(B)], difference: [...A.difference(B)],
    sym: [...A.symmetricDifference(B)], subset: new Set([2]).isSubsetOf(A), superset: A.isSupersetOf(new Set([1, 2])),
    disjoint: A.isDisjointFrom(new Set([7])), setLike: [...A.intersection(setLike)],
    badSize: threw(() => A.union({ size: NaN, has() {}, keys() {} })),
    brand: threw(() => Set.prototype.union.call(new Map(), B)),
    desc: desc(Set.prototype, "symmetricDifference"),
  };
  // the smaller ones
  out.small = {
    fromAsync: await Array.fromAsync((async function* () { yield 1; yield Promise.resolve(2); })(), (x) => x * 3),
    fromAsyncLike: await Array.fromAsync({ length: 2, 0: "a", 1: Promise.resolve("b") }),
    fromAsyncBad: await rejected(Array.fromAsync([1], 5)),
    promiseTry: await Promise.try((a, b) => a + b, 2, 3),
    promiseTryThrow: await rejected(Promise.try(() => { throw new RangeError("x"); })),
    escape: RegExp.escape("1.5+x=y (a|b)\n"),
    sumPrecise: [Math.sumPrecise([1e20, 0.1, -1e20]), Math.sumPrecise([0.1, 0.2, 0.3]), Object.is(Math.sumPrecise([]), -0),
      Math.sumPrecise([1.7976931348623157e308, 1.7976931348623157e308, -1.7976931348623157e308])],
    pause: [Atomics.pause(), Atomics.pause(-0), threw(() => Atomics.pause(1.5))],
    isError: [Error.isError(new TypeError()), Error.isError({ __proto__: Error.prototype }), Error.isError(new Proxy(new Error(), {}))],
    upsert: (() => { const m = new Map(); return [m.getOrInsert("a", 1), m.getOrInsert("a", 2), m.getOrInsertComputed("b", (k) => k + "!"), [...m]]; })(),
    weakUpsert: (() => { const w = new WeakMap(); const k = {}; return [w.getOrInsert(k, 1), w.getOrInsertComputed(k, () => 2), threw(() => w.getOrInsert(1, 1))]; })(),
    f16: [Math.f16round(1.337), Math.f16round(65520), Math.f16round(5e-8), Math.f16round(-0.1)],
    dataView: (() => { const d = new DataView(new ArrayBuffer(4)); d.setFloat16(0, 1.5); d.setFloat16(2, -2, true); return [d.getFloat16(0), d.getFloat16(2, true), new Uint8Array(d.buffer).join()]; })(),
    base64: [new Uint8Array([104, 105, 255]).toBase64(), new Uint8Array([251, 255]).toBase64({ alphabet: "base64url", omitPadding: true }),
      [...Uint8Array.fromBase64("aGk/")], [...Uint8Array.fromHex("00fFa0")], new Uint8Array([1, 171]).toHex(),
      threw(() => Uint8Array.fromBase64("a")), threw(() => Uint8Array.fromHex("abc"))],
    transfer: (() => { const b = new ArrayBuffer(4); const u = new Uint8Array(b); u[0] = 7; const t = b.transfer(8); const f = t.transferToFixedLength(1);
      return [b.detached, b.byteLength, t.detached, f.byteLength, new Uint8Array(f)[0], threw(() => u.toHex()), threw(() => b.transfer())]; })(),
    setFrom: (() => { const t = new Uint8Array(4); const r = t.setFromBase64("AQID BA=="); const h = new Uint8Array(2); return [r, [...t], h.setFromHex("aabbcc"), [...h]]; })(),
  };
  // explicit resource management (built-ins only; `using` is syntax the parser lacks)
  const log = [];
  const stack = new DisposableStack();
  stack.use({ [Symbol.dispose]() { log.push("use"); } });
  stack.defer(() => log.push("defer"));
  const adopted = stack.adopt("res", (v) => log.push("adopt " + v));
  const moved = stack.move();
  moved.dispose();
  let suppressed;
  const failing = new DisposableStack();
  failing.defer(() => { throw new Error("first"); });
  failing.defer(() => { throw new Error("second"); });
  try { failing.dispose(); } catch (e) { suppressed = [e.constructor.name, e.error.message, e.suppressed.message, Error.isError(e)]; }
  const alog = [];
  const astack = new AsyncDisposableStack();
  astack.use({ async [Symbol.asyncDispose]() { alog.push("async"); } });
  astack.use({ [Symbol.dispose]() { alog.push("sync"); } });
  await astack.disposeAsync();
  const iterLog = [];
  const it = { __proto__: Iterator.prototype, next() {}, return() { iterLog.push("return"); return {}; } };
  it[Symbol.dispose]();
  out.erm = {
    log, adopted, disposed: [stack.disposed, moved.disposed], suppressed, alog, iterLog,
    afterDispose: threw(() => stack.use(null)),
    symbols: [typeof Symbol.dispose, String(Symbol.asyncDispose), desc(Symbol, "dispose")],
    se: (() => { const e = new SuppressedError(1, 2, "m"); return [e.name, e.message, e.error, e.suppressed, e instanceof Error]; })(),
    tag: [String(new DisposableStack()), String(new AsyncDisposableStack())],
    noNew: threw(() => DisposableStack()),
  };
  return out;
});
