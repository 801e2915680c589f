// Prints one line per built-in of src/engine/js/esnext/: where it lives, name/length, and its
// property attributes (w e c). cases_esnext.py compares the lines with the spec's.
const iterProto = Object.getPrototypeOf(Object.getPrototypeOf([].values()));
const asyncIterProto = Object.getPrototypeOf(Object.getPrototypeOf((async function* () {}).prototype));
const helperProto = Object.getPrototypeOf([].values().map((x) => x));
const wrapProto = Object.getPrototypeOf(Iterator.from({ next() {} }));
const places = [
  ["globalThis", globalThis, ["Iterator", "SuppressedError", "DisposableStack", "AsyncDisposableStack"]],
  ["Iterator", Iterator, ["from", "concat", "prototype"]],
  ["Iterator.prototype", iterProto, ["map", "filter", "take", "drop", "flatMap", "reduce", "toArray", "forEach", "some", "every", "find", "constructor", Symbol.toStringTag, Symbol.dispose]],
  ["%IteratorHelperPrototype%", helperProto, ["next", "return", Symbol.toStringTag]],
  ["%WrapForValidIteratorPrototype%", wrapProto, ["next", "return"]],
  ["%AsyncIteratorPrototype%", asyncIterProto, [Symbol.asyncDispose]],
  ["Set.prototype", Set.prototype, ["union", "intersection", "difference", "symmetricDifference", "isSubsetOf", "isSupersetOf", "isDisjointFrom"]],
  ["Array", Array, ["fromAsync"]],
  ["Promise", Promise, ["try"]],
  ["RegExp", RegExp, ["escape"]],
  ["Math", Math, ["sumPrecise", "f16round"]],
  ["Error", Error, ["isError"]],
  ["Atomics", Atomics, ["pause"]],
  ["Map.prototype", Map.prototype, ["getOrInsert", "getOrInsertComputed"]],
  ["WeakMap.prototype", WeakMap.prototype, ["getOrInsert", "getOrInsertComputed"]],
  ["DataView.prototype", DataView.prototype, ["getFloat16", "setFloat16"]],
  ["Uint8Array", Uint8Array, ["fromBase64", "fromHex"]],
  ["Uint8Array.prototype", Uint8Array.prototype, ["toBase64", "toHex", "setFromBase64", "setFromHex"]],
  ["ArrayBuffer.prototype", ArrayBuffer.prototype, ["transfer", "transferToFixedLength", "detached"]],
  ["Symbol", Symbol, ["dispose", "asyncDispose"]],
  ["DisposableStack.prototype", DisposableStack.prototype, ["adopt", "defer", "dispose", "disposed", "move", "use", Symbol.dispose, Symbol.toStringTag]],
  ["AsyncDisposableStack.prototype", AsyncDisposableStack.prototype, ["adopt", "defer", "disposeAsync", "disposed", "move", "use", Symbol.asyncDispose, Symbol.toStringTag]],
  ["SuppressedError.prototype", SuppressedError.prototype, ["name", "message", "constructor"]],
];
const fmt = (f) => {
  if (typeof f !== "function") return typeof f === "symbol" ? f.toString() : typeof f === "object" ? "object" : JSON.stringify(f);
  const ctor = (() => { try { Reflect.construct(String, [], f); return "ctor"; } catch { return "fn"; } })();
  return `${ctor} ${f.name}/${f.length}`;
};
for (const [where, o, keys] of places) {
  for (const k of keys) {
    const d = Object.getOwnPropertyDescriptor(o, k);
    const key = typeof k === "symbol" ? `[${k.description}]` : k;
    if (!d) { console.log(`${where} ${key}: missing`); continue; }
    const attrs = (d.writable ? "w" : "-") + (d.enumerable ? "e" : "-") + (d.configurable ? "c" : "-");
    if ("value" in d) console.log(`${where} ${key}: ${fmt(d.value)} ${attrs}`);
    else console.log(`${where} ${key}: get ${fmt(d.get)} set ${d.set ? fmt(d.set) : "-"} ${attrs}`);
  }
}
console.log("proto", Object.getPrototypeOf(SuppressedError) === Error, Object.getPrototypeOf(helperProto) === iterProto,
  Object.getPrototypeOf(DisposableStack) === Function.prototype, Object.getPrototypeOf(DisposableStack.prototype) === Object.prototype,
  DisposableStack.prototype[Symbol.dispose] === DisposableStack.prototype.dispose);
