// Oracle: structuredClone (global) — what is copied, what stays shared, what is refused.
import { inspect } from "node:util";

const attempt = (f) => {
  try { return { ok: f() }; } catch (e) { return { name: e.name, message: e.message, code: e.code, isError: e instanceof Error }; }
};
const show = (v) => inspect(v, { depth: 5, sorted: true });

export async function agent() {
  const out = {};
  out.primitives = [1, -0, NaN, "s", true, null, undefined, 10n].map((v) => show(structuredClone(v)));
  out.negativeZero = Object.is(structuredClone(-0), -0);

  const src = {
    num: 1, str: "x", nested: { arr: [1, { deep: true }], empty: {} }, date: new Date(86400000), re: /ab+c/gi,
    map: new Map([["k", { v: 1 }], [{ objKey: 1 }, "objVal"]]), set: new Set([1, "two", { three: 3 }]),
    boxed: [new Number(5), new String("str"), new Boolean(false), Object(7n)], und: undefined, nul: null,
    big: 123n, sparse: Object.assign([1, , 3], { extra: "prop" }), bytes: new Uint8Array([1, 2, 3]),
  };
  const copy = structuredClone(src);
  out.deep = [show(copy), copy !== src, copy.nested !== src.nested, copy.map !== src.map, copy.date !== src.date,
    copy.date.getTime(), copy.re.lastIndex, copy.re.flags, copy.boxed.map((b) => typeof b), 1 in copy.sparse];

  const shared = { tag: "shared" };
  const withRefs = { a: shared, b: shared, list: [shared] };
  const refCopy = structuredClone(withRefs);
  out.sharedRefs = [refCopy.a === refCopy.b, refCopy.list[0] === refCopy.a, refCopy.a !== shared];
  const cyc = { name: "root", children: [] };
  cyc.self = cyc;
  cyc.children.push({ parent: cyc });
  const cycMap = new Map();
  cycMap.set("me", cycMap);
  const cycCopy = structuredClone(cyc);
  out.cycles = [cycCopy.self === cycCopy, cycCopy.children[0].parent === cycCopy, cycCopy !== cyc, show(cycCopy)];
  const mapCopy = structuredClone(cycMap);
  out.cycleMap = [mapCopy.get("me") === mapCopy];

  const buf = new ArrayBuffer(8);
  const view1 = new Uint8Array(buf, 0, 4);
  const view2 = new Uint16Array(buf, 4, 2);
  const dv = new DataView(buf, 2, 4);
  view1.set([1, 2, 3, 4]);
  const views = structuredClone({ view1, view2, dv, buf });
  views.view1[0] = 99;
  out.buffers = [views.view1.buffer === views.view2.buffer, views.dv.buffer === views.buf, views.buf !== buf, view1[0],
    new Uint8Array(views.buf)[0], views.view2.byteOffset, views.dv.byteOffset, views.dv.byteLength, views.view2.constructor.name];
  out.bufferBecomesUint8Array = show(structuredClone(Buffer.from("ab")));
  out.typed = [new Int16Array([-1, 2]), new Float64Array([0.5, NaN]), new BigUint64Array([5n])].map((t) => show(structuredClone(t)));

  class Point { constructor() { this.x = 1; this.y = 2; } get sum() { return this.x + this.y; } }
  const inst = structuredClone(new Point());
  out.classInstance = [show(inst), Object.getPrototypeOf(inst) === Object.prototype, inst.sum];
  out.getterValue = show(structuredClone({ get g() { return 5; } }));
  out.symbolKeysDropped = show(structuredClone({ [Symbol("s")]: 1, a: 2 }));
  out.nonEnumerableDropped = show(structuredClone(Object.defineProperty({ a: 1 }, "hidden", { value: 2, enumerable: false })));
  out.nullProto = show(structuredClone(Object.assign(Object.create(null), { z: 1 })));

  const errs = [new Error("plain"), new TypeError("type"), new RangeError("r", { cause: { deep: 1 } }), new SyntaxError("syn")];
  class MyError extends Error { constructor(m) { super(m); this.extra = 1; } }
  const my = new MyError("mine");
  const renamed = new Error("x");
  renamed.name = "Custom";
  const asType = new MyError("m");
  asType.name = "TypeError";
  out.errors = [...errs, my, renamed, asType].map((e) => {
    const c = structuredClone(e);
    return [c.constructor.name, c.name, c.message, Object.keys(c), c instanceof Error, typeof c.stack, c.cause, c !== e];
  });

  out.refused = [
    attempt(() => structuredClone(Symbol("x"))), attempt(() => structuredClone(() => {})),
    attempt(() => structuredClone(function named() { return 1; })), attempt(() => structuredClone({ a: Promise.resolve() })),
    attempt(() => structuredClone(new WeakMap())), attempt(() => structuredClone(new WeakSet())), attempt(() => structuredClone(Object(Symbol("b")))),
    attempt(() => structuredClone({ nested: { fn() {} } })), attempt(() => structuredClone([1, Symbol.iterator])),
  ];
  out.args = [attempt(() => structuredClone()), attempt(() => structuredClone(1, 5)), attempt(() => structuredClone(1, null)),
    attempt(() => structuredClone(1, { transfer: 5 })), attempt(() => structuredClone(new Uint8Array(2), { transfer: [new Uint8Array(2)] })),
    attempt(() => structuredClone({ a: 1 }, { transfer: [] })), attempt(() => structuredClone({ a: 1 }, {}))];
  const errorCode = (() => { try { structuredClone(() => {}); } catch (e) { return [e.code, e.constructor.name, Object.prototype.toString.call(e)]; } })();
  out.errorShape = errorCode;
  return out;
}
