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
  const FunctionPrototypeBind = Function.prototype.bind, FunctionPrototypeCall = Function.prototype.call; // shims2

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

  // ---- shims1 (util, internal_console, assert, querystring, string_decoder, events, process) ----
  // The builtins those shims use beyond the ones above, read here before any guest code: an array
  // (no atoms to intern or shapes to grow at startup), named in this order by
  // node/internal_captures_util.js (which checks the count). The prototypes are read once into
  // locals (a global read per entry cost about 10,000 instructions in all).
  const shims1Captures = (() => {
    const gopd = Object.getOwnPropertyDescriptor, getProto = Object.getPrototypeOf;
    const FP = Function.prototype, OP = Object.prototype, AP = ArrayProto, SP = StringProto, NP = Number.prototype;
    const SyP = Symbol.prototype, RP = RegExp.prototype, SetP = Set.prototype, DP = Date.prototype;
    const TAP = getProto(Uint8Array.prototype);
    return [
      FP.call, // FunctionPrototypeCall
      FP.toString, // FunctionPrototypeToString
      FP[Symbol.hasInstance], // FunctionPrototypeHasInstance
      Object.getPrototypeOf, // ObjectGetPrototypeOf
      Object.getOwnPropertyDescriptor, // ObjectGetOwnPropertyDescriptor
      Object.getOwnPropertyDescriptors, // ObjectGetOwnPropertyDescriptors
      Object.getOwnPropertyNames, // ObjectGetOwnPropertyNames
      Object.getOwnPropertySymbols, // ObjectGetOwnPropertySymbols
      Object.is, // ObjectIs
      OP.toString, // ObjectPrototypeToString
      OP.propertyIsEnumerable, // ObjectPrototypePropertyIsEnumerable
      Reflect.construct, // ReflectConstruct
      AP.pop, // ArrayPrototypePop
      AP.includes, // ArrayPrototypeIncludes
      String.fromCharCode, // StringFromCharCode
      SP.charCodeAt, // StringPrototypeCharCodeAt
      SP.codePointAt, // StringPrototypeCodePointAt
      SP.endsWith, // StringPrototypeEndsWith
      SP.padStart, // StringPrototypePadStart
      SP.padEnd, // StringPrototypePadEnd
      SP.toUpperCase, // StringPrototypeToUpperCase
      SP.normalize, // StringPrototypeNormalize
      SP.valueOf, // StringPrototypeValueOf
      Number.isNaN, // NumberIsNaN
      Number.parseInt, // NumberParseInt
      Number.parseFloat, // NumberParseFloat
      NP.toString, // NumberPrototypeToString
      NP.toFixed, // NumberPrototypeToFixed
      NP.valueOf, // NumberPrototypeValueOf
      Boolean, // BooleanCtor
      Boolean.prototype.valueOf, // BooleanPrototypeValueOf
      BigInt, // BigIntCtor
      BigInt.prototype.valueOf, // BigIntPrototypeValueOf
      Symbol, // SymbolCtor
      Symbol.for, // SymbolFor
      SyP.toString, // SymbolPrototypeToString
      SyP.valueOf, // SymbolPrototypeValueOf
      Math.min, // MathMin
      Math.round, // MathRound
      Math.sqrt, // MathSqrt
      Date, // DateCtor
      DP.getTime, // DatePrototypeGetTime
      DP.toISOString, // DatePrototypeToISOString
      gopd(RP, "source").get, // RegExpPrototypeGetSource
      Set, // SetCtor
      SetP.has, // SetPrototypeHas
      SetP.add, // SetPrototypeAdd
      SetP.forEach, // SetPrototypeForEach
      gopd(SetP, "size").get, // SetPrototypeGetSize
      WeakMap.prototype.has, // WeakMapPrototypeHas
      WeakSet, // WeakSetCtor
      WeakSet.prototype.has, // WeakSetPrototypeHas
      ArrayBuffer, // ArrayBufferCtor
      ArrayBuffer.isView, // ArrayBufferIsView
      gopd(ArrayBuffer.prototype, "byteLength").get, // ArrayBufferPrototypeGetByteLength
      typeof SharedArrayBuffer === "function" ? SharedArrayBuffer : undefined, // SharedArrayBufferCtor
      typeof SharedArrayBuffer === "function" ? gopd(SharedArrayBuffer.prototype, "byteLength").get : undefined, // SharedArrayBufferPrototypeGetByteLength
      DataView, // DataViewCtor
      gopd(DataView.prototype, "byteLength").get, // DataViewPrototypeGetByteLength
      gopd(TAP, Symbol.toStringTag).get, // TypedArrayPrototypeGetToStringTag
      Uint8Array, // Uint8ArrayCtor
      Promise.resolve, // PromiseStaticResolve
      RangeError, // RangeErrorCtor
      URIError, // URIErrorCtor
      encodeURIComponent, // EncodeURIComponent
      decodeURIComponent, // DecodeURIComponent
      TAP.set, // TypedArrayPrototypeSet
      AP.shift, // ArrayPrototypeShift
      getProto(new Map().entries()).next, // MapIteratorPrototypeNext
      getProto(new Set().values()).next, // SetIteratorPrototypeNext
      gopd(RP, "hasIndices").get, // RegExpPrototypeGetHasIndices
      gopd(RP, "global").get, // RegExpPrototypeGetGlobal
      gopd(RP, "ignoreCase").get, // RegExpPrototypeGetIgnoreCase
      gopd(RP, "multiline").get, // RegExpPrototypeGetMultiline
      gopd(RP, "dotAll").get, // RegExpPrototypeGetDotAll
      gopd(RP, "unicode").get, // RegExpPrototypeGetUnicode
      (gopd(RP, "unicodeSets") || {}).get, // RegExpPrototypeGetUnicodeSets
      gopd(RP, "sticky").get, // RegExpPrototypeGetSticky
      gopd(TAP, "length").get, // TypedArrayPrototypeGetLength
    ];
  })();
  // streams: what node:stream and the web streams use beyond the above, %TypedArray%.prototype's
  // getters included (configurable: a guest may redefine them). Order: SP in node/internal_webstreams.js.
  function streamsCaptures() {
    const gopd = Object.getOwnPropertyDescriptor;
    const TA = Object.getPrototypeOf(Uint8Array.prototype), AB = ArrayBuffer.prototype;
    const detached = gopd(AB, "detached");
    return [
      ArrayProto.shift, WeakMapProto.has, RangeError, Symbol.asyncIterator, Symbol.iterator,
      Symbol.toStringTag, Symbol.hasInstance, Function.prototype[Symbol.hasInstance], Object.getPrototypeOf,
      Number.isNaN, Math.min, ArrayBuffer, ArrayBuffer.isView, AB.slice, AB.transfer, gopd(AB, "byteLength").get,
      detached === undefined ? undefined : detached.get, DataView, TA.set, gopd(TA, Symbol.toStringTag).get,
      gopd(TA, "buffer").get, gopd(TA, "byteOffset").get, gopd(TA, "byteLength").get, Uint8Array,
    ];
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
    // ---- shims2 (path, url, internal/url*, internal/idna): what their own paths use ----
    StringPrototypeCharCodeAt: StringProto.charCodeAt,
    StringPrototypeCodePointAt: StringProto.codePointAt,
    StringFromCharCode: String.fromCharCode,
    StringFromCodePoint: String.fromCodePoint,
    NumberPrototypeToString: Number.prototype.toString,
    // Function.prototype.call itself: bind(call, f) is f uncurried with no argument list made per
    // call (the bound function holds both; nothing is looked up when it runs)
    FunctionPrototypeCall,
    uncurryThis: (f) => ReflectApply(FunctionPrototypeBind, FunctionPrototypeCall, [f]),
    StringPrototypeToWellFormed: StringProto.toWellFormed,
    StringPrototypeToUpperCase: StringProto.toUpperCase,
    StringPrototypeEndsWith: StringProto.endsWith,
    ArrayFrom: Array.from,
    ObjectGetOwnPropertyNames: Object.getOwnPropertyNames,
    ObjectGetOwnPropertyDescriptor: Object.getOwnPropertyDescriptor,
    ReflectGetOwnPropertyDescriptor: Reflect.getOwnPropertyDescriptor,
    SymbolIterator: Symbol.iterator,
    SymbolToStringTag: Symbol.toStringTag,
    // %IteratorPrototype%, the [[Prototype]] of the array iterator's prototype
    IteratorPrototype: Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]())),
    DecodeURIComponent: decodeURIComponent,
    EncodeURIComponent: encodeURIComponent,
    // shims1: see shims1Captures above
    shims1: ObjectSetPrototypeOf(shims1Captures, null),

    // streams (node/stream.js, internal_stream_ops.js, internal_webstreams.js): one array (the
    // cheapest object to build, as esnext/00-captures.js), named by node/internal_webstreams.js
    streams: streamsCaptures(),
  };
})
