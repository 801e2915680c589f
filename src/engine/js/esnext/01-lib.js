/* esnext/01-lib.js — the shared toolkit of the built-ins we add in JavaScript (esnext/).
 *
 * Loaded with the other files of esnext/ on the first call of one of those built-ins (see
 * src/engine/esnext.c); each file's value is a function called with `lib`, a null-prototype object
 * the files share, and `natives`, a few C helpers. This file fills `lib` with the spec's abstract
 * operations (GetIteratorDirect, IteratorStepValue, IteratorClose, ToIntegerOrInfinity...) and
 * `register`, which hands the implementations to the C stubs guests see. Everything here is
 * written against the intrinsics 00-captures.js captured before guest code ran (lib.P): guest code
 * that replaced Function.prototype.call, Object.defineProperty or a prototype method cannot change
 * how our built-ins behave. The only lookups they make on guest objects are the ones the
 * specification makes observable.
 *
 * Trusts: nothing but the intrinsics as they are before guest code runs.
 */
(function (lib, natives) {
  "use strict";
  // The entries of 00-captures.js's array, by name (same order), and what esnext.c made.
  const NAMES = [
    "IteratorPrototype",
    "AsyncIteratorPrototype",
    "SymbolDispose",
    "SymbolAsyncDispose",
    "ErrorPrototype",
    "call",
    "ObjectDefineProperty",
    "ObjectGetOwnPropertyDescriptor",
    "ObjectSetPrototypeOf",
    "ObjectCtor",
    "ArrayCtor",
    "ReflectOwnKeys",
    "ReflectSet",
    "ProxyCtor",
    "TypeErrorCtor",
    "RangeErrorCtor",
    "NumberIsNaN",
    "SymbolIterator",
    "SymbolAsyncIterator",
    "PromiseReject",
    "ObjectCreate",
    "ObjectIsPrototypeOf",
    "ReflectApply",
    "ReflectConstruct",
    "ErrorCtor",
    "SyntaxErrorCtor",
    "ReferenceErrorCtor",
    "MathTrunc",
    "MathAbs",
    "MathFloor",
    "MathLog2",
    "NumberIsInteger",
    "NumberToString",
    "StringCharCodeAt",
    "StringFromCharCode",
    "StringPadStart",
    "SymbolToStringTag",
    "SymbolKeyFor",
    "PromiseCtor",
    "PromiseResolve",
    "SetCtor",
    "SetHas",
    "SetAdd",
    "SetDelete",
    "SetValues",
    "SetSize",
    "SetIterNext",
    "MapHas",
    "MapGet",
    "MapSet",
    "WeakMapHas",
    "WeakMapGet",
    "WeakMapSet",
    "DataViewBuffer",
    "DataViewGetUint16",
    "DataViewSetUint16",
    "Uint8ArrayCtor",
    "TypedArrayTag",
    "TypedArrayLength",
    "TypedArrayBuffer",
    "TypedArraySet",
    "ArrayBufferCtor",
    "ArrayBufferByteLength",
    "GenNext",
    "GenReturn",
  ];
  const P = { __proto__: null };
  for (let i = 0; i < NAMES.length; i++) P[NAMES[i]] = lib.captures[i];
  P.Iterator = lib.made.Iterator;
  P.SuppressedError = lib.made.SuppressedError;
  P.DSP = lib.made.DSP;
  P.ADSP = lib.made.ADSP;
  lib.P = P;
  const { call, ObjectDefineProperty, ObjectGetOwnPropertyDescriptor, ObjectSetPrototypeOf, ReflectOwnKeys, ProxyCtor,
    TypeErrorCtor, RangeErrorCtor, NumberIsNaN } = P;

  const isObject = (v) => (typeof v === "object" && v !== null) || typeof v === "function";
  const isCallable = (v) => typeof v === "function";
  const DONE = { __proto__: null };

  // Gives arbitrary objects a private slot: `new Slot(obj, value)` stamps obj (the base
  // constructor returns obj, so the derived one adds its private field to it). `#v in o` is a
  // brand check no guest code can fake or observe (a Proxy has no private fields).
  class Stamp {
    constructor(o) {
      return o;
    }
  }
  function makeSlot(what) {
    class Slot extends Stamp {
      #v;
      constructor(o, v) {
        super(o);
        this.#v = v;
      }
      static has(o) {
        return isObject(o) && #v in o;
      }
      static get(o) {
        if (!isObject(o) || !(#v in o)) throw new TypeErrorCtor(what);
        return o.#v;
      }
    }
    return Slot;
  }

  // GetIteratorDirect: the record of an iterator whose `next` is read once, up front.
  function getIteratorDirect(obj) {
    return { it: obj, next: obj.next };
  }

  // IteratorStep: the result object, or DONE.
  function step(rec) {
    const r = call(rec.next, rec.it);
    if (!isObject(r)) throw new TypeErrorCtor("the iterator's next() returned a non-object");
    return r.done ? DONE : r;
  }

  // IteratorStepValue: the next value, or DONE.
  function stepValue(rec) {
    const r = call(rec.next, rec.it);
    if (!isObject(r)) throw new TypeErrorCtor("the iterator's next() returned a non-object");
    return r.done ? DONE : r.value;
  }

  // GetMethod: undefined for undefined/null, else a callable or a TypeError.
  function getMethod(o, key) {
    const m = o[key];
    if (m === undefined || m === null) return undefined;
    if (!isCallable(m)) throw new TypeErrorCtor("the object's " + (typeof key === "symbol" ? "symbol-keyed" : key) + " method is not callable");
    return m;
  }

  // IteratorClose with a throw completion: the iterator's return() is called, whatever it does
  // is ignored, and `err` is thrown.
  function closeThrow(it, err) {
    try {
      const m = it.return;
      if (m !== undefined && m !== null) call(m, it);
    } catch (_) {
      /* the original error wins */
    }
    throw err;
  }

  // IteratorClose with a normal completion: errors of return() propagate; its result must be an
  // object.
  function closeNormal(it) {
    const m = getMethod(it, "return");
    if (m === undefined) return;
    const r = call(m, it);
    if (!isObject(r)) throw new TypeErrorCtor("the iterator's return() returned a non-object");
  }

  // GetIteratorFromMethod
  function getIteratorFromMethod(obj, method) {
    const it = call(method, obj);
    if (!isObject(it)) throw new TypeErrorCtor("the iterator method returned a non-object");
    return getIteratorDirect(it);
  }

  // ToIntegerOrInfinity (ToNumber is the unary plus: it throws on BigInt and Symbol).
  function toIntegerOrInfinity(v) {
    const n = +v;
    if (NumberIsNaN(n) || n === 0) return 0;
    if (n === Infinity || n === -Infinity) return n;
    return n - (n % 1); // truncation (no Math: quickjs-ng's captures leave it out)
  }

  // ToIndex
  function toIndex(v) {
    const i = toIntegerOrInfinity(v);
    if (i < 0 || i > 9007199254740991) throw new RangeErrorCtor("index out of range");
    return i;
  }

  // CreateDataPropertyOrThrow
  function createDataProperty(o, key, value) {
    ObjectDefineProperty(o, key, { __proto__: null, value, writable: true, enumerable: true, configurable: true });
  }

  // IsConstructor, with no observable lookup on f: constructing a Proxy of f runs our trap only
  // if f can be constructed at all.
  const probeHandler = { __proto__: null, construct() { return probeHandler; } };
  function isConstructor(f) {
    if (typeof f !== "function") return false;
    try {
      const probe = new ProxyCtor(f, probeHandler);
      new probe();
      return true;
    } catch (_) {
      return false;
    }
  }

  // Installs the own properties of `src` (an object literal of methods and accessors, so names
  // and lengths are the literal's) on `target` as the spec installs built-in methods: writable,
  // configurable, not enumerable. (For the objects these files create themselves.)
  function defineMethods(target, src) {
    const keys = ReflectOwnKeys(src);
    for (let i = 0; i < keys.length; i++) {
      const d = ObjectGetOwnPropertyDescriptor(src, keys[i]);
      ObjectSetPrototypeOf(d, null); // no field of it may be inherited from Object.prototype
      d.enumerable = false;
      ObjectDefineProperty(target, keys[i], d);
    }
  }

  // A data property with explicit attributes.
  function defineValue(target, key, value, writable, enumerable, configurable) {
    ObjectDefineProperty(target, key, { __proto__: null, value, writable, enumerable, configurable });
  }

  // Hands the implementations in `src` to the C stubs: its methods as "where.name", its accessors
  // as "get where.name" / "set where.name" (esnext.c calls them by those names).
  const impl = lib.impl;
  function register(where, src) {
    const keys = ReflectOwnKeys(src);
    for (let i = 0; i < keys.length; i++) {
      const d = ObjectGetOwnPropertyDescriptor(src, keys[i]);
      ObjectSetPrototypeOf(d, null);
      const name = where + "." + keys[i];
      if (d.get !== undefined) defineValue(impl, "get " + name, d.get, false, false, false);
      if (d.set !== undefined) defineValue(impl, "set " + name, d.set, false, false, false);
      if (d.get === undefined && d.set === undefined) defineValue(impl, name, d.value, false, false, false);
    }
  }

  lib.call = call;
  lib.isObject = isObject;
  lib.isCallable = isCallable;
  lib.DONE = DONE;
  lib.makeSlot = makeSlot;
  lib.getIteratorDirect = getIteratorDirect;
  lib.step = step;
  lib.stepValue = stepValue;
  lib.getMethod = getMethod;
  lib.closeThrow = closeThrow;
  lib.closeNormal = closeNormal;
  lib.getIteratorFromMethod = getIteratorFromMethod;
  lib.toIntegerOrInfinity = toIntegerOrInfinity;
  lib.toIndex = toIndex;
  lib.createDataProperty = createDataProperty;
  lib.isConstructor = isConstructor;
  lib.defineMethods = defineMethods;
  lib.defineValue = defineValue;
  lib.register = register;
  lib.natives = natives;
})
