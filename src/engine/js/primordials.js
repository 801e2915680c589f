/* primordials.js — the builtins the prelude, context.js and the shims use, captured once per run
 * before any guest code runs, and safe forms of the language operations that would
 * otherwise read a guest-writable property (docs/primordials.md).
 *
 * Evaluated first by the prelude (loadBuiltin("primordials.js")); its value is a function that
 * returns one prototype-less object. Nothing here is reachable from guest code. Guest code
 * may later replace or delete any of the originals (Promise.prototype.then, Function.prototype.call,
 * Array.prototype[Symbol.iterator], Map.prototype.values, JSON.stringify …) or put setters on
 * Array.prototype and Object.prototype: the captured functions are unaffected, and the helpers below
 * write only own properties of objects without a prototype, so no inherited setter runs.
 *
 * Only what is used is captured (each capture is a property read at startup: kept cheap).
 */
(function () {
  "use strict";
  const ReflectApply = Reflect.apply;
  const ObjectSetPrototypeOf = Object.setPrototypeOf;
  const ObjectDefineProperty = Object.defineProperty;

  // f(thisArg, ...args) for a method f, through the captured Reflect.apply (never
  // Function.prototype.call or .apply, which a guest may replace). Consumers make the forms they
  // use when they load (each is a closure: only what is used is made).
  const uncurry = (f) => (self, ...args) => ReflectApply(f, self, args);

  const PromiseCtor = Promise;
  const PromisePrototypeThen = Promise.prototype.then;
  const PromiseStaticResolve = Promise.resolve;
  const PromiseStaticReject = Promise.reject;
  const MapProto = Map.prototype, WeakMapProto = WeakMap.prototype;
  const StringProto = String.prototype, ArrayProto = Array.prototype;
  const MapSize = Object.getOwnPropertyDescriptor(MapProto, "size").get;

  // Own, writable, enumerable data property, defined (no inherited setter runs): the descriptor has
  // no prototype, so a getter a guest put on Object.prototype ("get", "set") is never read.
  function defineValue(o, k, v) {
    ObjectDefineProperty(o, k, { __proto__: null, value: v, writable: true, enumerable: true, configurable: true });
    return v;
  }

  // Marks a promise the plumbing made so that `await`, the captured `then` and a promise resolved
  // with it never read Promise.prototype.constructor or Promise.prototype.then (a guest may
  // replace both): own, non-enumerable `constructor` and `then` holding the originals, which is
  // what every promise of this realm reports until a guest patches the prototype.
  const CONSTRUCTOR_DESC = { __proto__: null, value: PromiseCtor, writable: true, enumerable: false, configurable: true };
  const THEN_DESC = { __proto__: null, value: PromisePrototypeThen, writable: true, enumerable: false, configurable: true };
  function own(p) {
    ObjectDefineProperty(p, "constructor", CONSTRUCTOR_DESC);
    ObjectDefineProperty(p, "then", THEN_DESC);
    return p;
  }

  // An internal promise that settles as the guest value `v` does. A promise of this realm is
  // followed with the captured `then` (its own `then`, maybe a guest's, is never read, so a guest
  // cannot receive the plumbing's resolving functions); any other value resolves the promise as
  // the language resolves it (a guest's thenable still runs its own then).
  function from(v) {
    if (v === null || (typeof v !== "object" && typeof v !== "function"))
      return own(ReflectApply(PromiseStaticResolve, PromiseCtor, [v]));
    let resolve, reject;
    const p = new PromiseCtor((a, b) => { resolve = a; reject = b; });
    let followed = false;
    try {
      ReflectApply(PromisePrototypeThen, v, [resolve, reject]);
      followed = true;
    } catch (_) { /* not a promise of this realm (or its species threw) */ }
    if (!followed) resolve(v);
    return own(p);
  }

  // Not frozen (freezing some 60 properties is measurable at startup): no guest code can reach it.
  // Methods are the raw functions (no wrapper is made here); uncurry(f) makes a callable form.
  return {
    __proto__: null,
    uncurry,
    ReflectApply,
    ReflectGet: Reflect.get,
    ReflectOwnKeys: Reflect.ownKeys,
    ObjectFreeze: Object.freeze,
    ObjectDefineProperty,
    ObjectSetPrototypeOf,
    ObjectKeys: Object.keys,
    ObjectHasOwn: Object.hasOwn,
    ObjectCreate: Object.create,
    JSONStringify: JSON.stringify,
    JSONParse: JSON.parse,
    ArrayIsArray: Array.isArray,
    StringCtor: String,
    NumberCtor: Number,
    ErrorCtor: Error,
    TypeErrorCtor: TypeError,
    RegExpCtor: RegExp,
    ProxyCtor: Proxy,
    MapCtor: Map,
    WeakMapCtor: WeakMap,
    MathMax: Math.max, MathCeil: Math.ceil, MathFloor: Math.floor,
    NumberIsInteger: Number.isInteger, NumberIsFinite: Number.isFinite,
    ErrorPrototypeToString: Error.prototype.toString,
    FunctionPrototypeBind: Function.prototype.bind,
    // String.prototype's methods, read now (the prototype object itself stays guest-writable)
    StringPrototypeSlice: StringProto.slice,
    StringPrototypeIncludes: StringProto.includes,
    StringPrototypeRepeat: StringProto.repeat,
    StringPrototypeStartsWith: StringProto.startsWith,
    StringPrototypeIndexOf: StringProto.indexOf,
    StringPrototypeLastIndexOf: StringProto.lastIndexOf,
    StringPrototypeToLowerCase: StringProto.toLowerCase,
    StringPrototypeTrim: StringProto.trim,
    // RegExp.prototype.exec itself (RegExp.prototype.test would look `exec` up on the regexp)
    RegExpPrototypeExec: RegExp.prototype.exec,
    ArrayPrototypeJoin: ArrayProto.join,
    ArrayPrototypeSlice: ArrayProto.slice,
    ArrayPrototypeSort: ArrayProto.sort,
    ArrayPrototypeIndexOf: ArrayProto.indexOf,
    ArrayPrototypeReverse: ArrayProto.reverse,
    ArrayPrototypePush: ArrayProto.push,
    ArrayPrototypeUnshift: ArrayProto.unshift,
    ArrayPrototypeSplice: ArrayProto.splice,
    MapPrototypeGet: MapProto.get,
    MapPrototypeSet: MapProto.set,
    MapPrototypeHas: MapProto.has,
    MapPrototypeDelete: MapProto.delete,
    MapPrototypeForEach: MapProto.forEach,
    MapPrototypeGetSize: MapSize,
    WeakMapPrototypeGet: WeakMapProto.get,
    WeakMapPrototypeSet: WeakMapProto.set,

    PromiseCtor,
    PromiseResolve: (v) => own(ReflectApply(PromiseStaticResolve, PromiseCtor, [v])),
    PromiseReject: (e) => own(ReflectApply(PromiseStaticReject, PromiseCtor, [e])),
    PromiseThen: (p, f, r) => own(ReflectApply(PromisePrototypeThen, own(p), [f, r])),
    PromiseOwn: own,
    PromiseFrom: from,

    // ---- web (fetch, http, fs, crypto, blob, formdata, text: node/internal_fetch.js and friends) ----
    StringPrototypeCharCodeAt: StringProto.charCodeAt,
    StringFromCharCode: String.fromCharCode,
    // %TypedArray%.prototype's, read through Uint8Array.prototype (which inherits them)
    TypedArrayPrototypeSlice: Uint8Array.prototype.slice,
    TypedArrayPrototypeSubarray: Uint8Array.prototype.subarray,
    TypedArrayPrototypeSet: Uint8Array.prototype.set,
    TypedArrayPrototypeFill: Uint8Array.prototype.fill,
    ArrayBufferIsView: ArrayBuffer.isView,
    ObjectPrototypeToString: Object.prototype.toString,
    ObjectGetPrototypeOf: Object.getPrototypeOf,
    ReflectGetOwnPropertyDescriptor: Reflect.getOwnPropertyDescriptor,
    EncodeURIComponent: encodeURIComponent, DecodeURIComponent: decodeURIComponent,
    Escape: escape, Unescape: unescape,

    // A list the plumbing fills with `a[a.length] = v`: an array without a prototype, so no
    // setter on Array.prototype or Object.prototype runs (JSON.stringify still sees an array).
    list: () => ObjectSetPrototypeOf([], null),
    // An object literal without its prototype: assignments to it are own writes, and
    // JSON.stringify reads no inherited toJSON from it.
    rec: (o) => ObjectSetPrototypeOf(o, null),
    defineValue,
    // [...head, ...rest] as an argument list for ReflectApply, without the array iterator (spread
    // reads Array.prototype[Symbol.iterator]) and without inherited setters
    argsWith: (head, rest) => {
      const a = ObjectSetPrototypeOf([], null);
      for (let i = 0; i < head.length; i++) a[a.length] = head[i];
      for (let i = 0; i < rest.length; i++) a[a.length] = rest[i];
      return a;
    },
  };
})
