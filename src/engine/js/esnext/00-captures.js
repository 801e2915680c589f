/* esnext/00-captures.js — the one eagerly run file of esnext/: it captures, before any guest code
 * runs, every intrinsic the built-ins of esnext/ will use, and creates Symbol.dispose and
 * Symbol.asyncDispose. It returns them as one array (the cheapest object to build: this runs in
 * every run); 01-lib.js names the entries, in the order of NAMES there, when the built-ins load.
 * Called with `slim` true (quickjs-ng), it captures only the head of the list.
 *
 * The built-ins themselves are loaded lazily (src/engine/esnext.c installs native-looking stubs
 * that load the other files of esnext/ on their first call), possibly after guest code has
 * replaced Function.prototype.call or Set.prototype.has: so the other files read the language
 * only through the object this file returns, never through globals.
 *
 * Trusts: nothing but the intrinsics as they are before guest code runs.
 */
(function (slim) {
  "use strict";
  const gopd = Object.getOwnPropertyDescriptor;
  const getProto = Object.getPrototypeOf;
  const FunctionPrototypeCall = Function.prototype.call;
  // The two well-known symbols QuickJS lacks: data properties of Symbol, like the others
  // (quickjs-ng has its own, kept).
  let SymbolDispose = Symbol.dispose;
  let SymbolAsyncDispose = Symbol.asyncDispose;
  if (typeof SymbolDispose !== "symbol") {
    SymbolDispose = Symbol("Symbol.dispose");
    Object.defineProperty(Symbol, "dispose", { value: SymbolDispose, writable: false, enumerable: false, configurable: false });
  }
  if (typeof SymbolAsyncDispose !== "symbol") {
    SymbolAsyncDispose = Symbol("Symbol.asyncDispose");
    Object.defineProperty(Symbol, "asyncDispose", { value: SymbolAsyncDispose, writable: false, enumerable: false, configurable: false });
  }
  // (esnext.c reads the first five entries by position)
  const head = [
    slim ? undefined : getProto(getProto([][Symbol.iterator]())), // IteratorPrototype
    slim ? undefined : getProto(getProto((async function* () {}).prototype)), // AsyncIteratorPrototype
    SymbolDispose, // SymbolDispose
    SymbolAsyncDispose, // SymbolAsyncDispose
    Error.prototype, // ErrorPrototype
    FunctionPrototypeCall.bind(FunctionPrototypeCall), // call
    Object.defineProperty, // ObjectDefineProperty
    gopd, // ObjectGetOwnPropertyDescriptor
    Object.create, // ObjectCreate
    Object.setPrototypeOf, // ObjectSetPrototypeOf
    Object.prototype.isPrototypeOf, // ObjectIsPrototypeOf
    Object, // ObjectCtor
    Array, // ArrayCtor
    Reflect.ownKeys, // ReflectOwnKeys
    Reflect.apply, // ReflectApply
    Reflect.set, // ReflectSet
    Reflect.construct, // ReflectConstruct
    Proxy, // ProxyCtor
    Error, // ErrorCtor
    TypeError, // TypeErrorCtor
    RangeError, // RangeErrorCtor
    SyntaxError, // SyntaxErrorCtor
    ReferenceError, // ReferenceErrorCtor
    Math.trunc, // MathTrunc
    Math.abs, // MathAbs
    Math.floor, // MathFloor
    Math.log2, // MathLog2
    Number.isNaN, // NumberIsNaN
    Number.isInteger, // NumberIsInteger
    Number.prototype.toString, // NumberToString
    String.prototype.charCodeAt, // StringCharCodeAt
    String.fromCharCode, // StringFromCharCode
    String.prototype.padStart, // StringPadStart
    Symbol.iterator, // SymbolIterator
    Symbol.asyncIterator, // SymbolAsyncIterator
    Symbol.toStringTag, // SymbolToStringTag
    Symbol.keyFor, // SymbolKeyFor
    Promise, // PromiseCtor
    Promise.reject.bind(Promise), // PromiseReject
    Promise.resolve.bind(Promise), // PromiseResolve
  ];
  // (on quickjs-ng only Array.fromAsync is ours, and it needs nothing below: the rest of
  // 01-lib.js's names stay undefined there)
  if (slim) return head;
  const TypedArrayProto = getProto(Uint8Array.prototype);
  const GeneratorPrototype = getProto(function* () {}).prototype;
  const rest = [
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
  for (let i = 0; i < rest.length; i++) head[head.length] = rest[i];
  return head;
})
