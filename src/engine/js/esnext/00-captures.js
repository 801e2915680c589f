/* esnext/00-captures.js — the first eagerly run file of esnext/: it captures, before any guest code
 * runs, every intrinsic the built-ins of esnext/ will use, and creates Symbol.dispose and
 * Symbol.asyncDispose. It returns them as one array (the cheapest object to build: this runs in
 * every run); 01-lib.js names the entries, in the order of NAMES there, when the built-ins load.
 * This is the head of the list, all that Array.fromAsync needs (on quickjs-ng, the only built-in
 * of esnext/ a run uses, this is all that runs; `slim` then leaves out the two prototypes esnext.c
 * needs on QuickJS); on QuickJS 00-captures-more.js appends the rest.
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
    Object.setPrototypeOf, // ObjectSetPrototypeOf
    Object, // ObjectCtor
    Array, // ArrayCtor
    Reflect.ownKeys, // ReflectOwnKeys
    Reflect.set, // ReflectSet
    Proxy, // ProxyCtor
    TypeError, // TypeErrorCtor
    RangeError, // RangeErrorCtor
    Number.isNaN, // NumberIsNaN
    Symbol.iterator, // SymbolIterator
    Symbol.asyncIterator, // SymbolAsyncIterator
    Promise.reject.bind(Promise), // PromiseReject
  ];
  return head;
})
