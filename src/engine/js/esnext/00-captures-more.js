/* esnext/00-captures-more.js — the rest of 00-captures.js's list, captured right after it on
 * QuickJS only (where esnext/ provides every built-in; on quickjs-ng, which has them natively,
 * only Array.fromAsync is ours and the head is enough). It appends to the array it is given, in
 * the order of 01-lib.js's NAMES.
 *
 * Trusts: nothing but the intrinsics as they are before guest code runs.
 */
(function (captures) {
  "use strict";
  const gopd = Object.getOwnPropertyDescriptor;
  const getProto = Object.getPrototypeOf;
  const TypedArrayProto = getProto(Uint8Array.prototype);
  const GeneratorPrototype = getProto(function* () {}).prototype;
  const rest = [
    Object.create, // ObjectCreate
    Object.prototype.isPrototypeOf, // ObjectIsPrototypeOf
    Reflect.apply, // ReflectApply
    Reflect.construct, // ReflectConstruct
    Error, // ErrorCtor
    SyntaxError, // SyntaxErrorCtor
    ReferenceError, // ReferenceErrorCtor
    Math.trunc, // MathTrunc
    Math.abs, // MathAbs
    Math.floor, // MathFloor
    Math.log2, // MathLog2
    Number.isInteger, // NumberIsInteger
    Number.prototype.toString, // NumberToString
    String.prototype.charCodeAt, // StringCharCodeAt
    String.fromCharCode, // StringFromCharCode
    String.prototype.padStart, // StringPadStart
    Symbol.toStringTag, // SymbolToStringTag
    Symbol.keyFor, // SymbolKeyFor
    Promise, // PromiseCtor
    Promise.resolve.bind(Promise), // PromiseResolve
    Set, // SetCtor
    Set.prototype.has, // SetHas
    Set.prototype.add, // SetAdd
    Set.prototype.delete, // SetDelete
    Set.prototype.values, // SetValues
    gopd(Set.prototype, "size").get, // SetSize
    getProto(new Set().values()).next, // SetIterNext
    Map.prototype.has, // MapHas
    Map.prototype.get, // MapGet
    Map.prototype.set, // MapSet
    WeakMap.prototype.has, // WeakMapHas
    WeakMap.prototype.get, // WeakMapGet
    WeakMap.prototype.set, // WeakMapSet
    gopd(DataView.prototype, "buffer").get, // DataViewBuffer
    DataView.prototype.getUint16, // DataViewGetUint16
    DataView.prototype.setUint16, // DataViewSetUint16
    Uint8Array, // Uint8ArrayCtor
    gopd(TypedArrayProto, Symbol.toStringTag).get, // TypedArrayTag
    gopd(TypedArrayProto, "length").get, // TypedArrayLength
    gopd(TypedArrayProto, "buffer").get, // TypedArrayBuffer
    TypedArrayProto.set, // TypedArraySet
    ArrayBuffer, // ArrayBufferCtor
    gopd(ArrayBuffer.prototype, "byteLength").get, // ArrayBufferByteLength
    GeneratorPrototype.next, // GenNext
    GeneratorPrototype.return, // GenReturn
  ];
  for (let i = 0; i < rest.length; i++) captures[captures.length] = rest[i];
})
