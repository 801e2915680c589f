/* node/internal_clone.js — structuredClone: the HTML structured-clone algorithm over the values a
 * run can hold. Primitives, plain objects and arrays (own enumerable string keys, holes kept),
 * Date, RegExp, Map, Set, ArrayBuffer, typed arrays and DataView (views sharing a buffer still
 * share its copy), boxed primitives, Error types (name, message, stack, cause), DOMException and
 * Blob. Cycles and shared references are preserved.
 *
 * Not cloneable, with a DataCloneError (a DOMException, as in Node): functions, symbols, Promise,
 * WeakMap/WeakSet/WeakRef, and the event objects (EventTarget, Event, AbortSignal,
 * AbortController — Node copies those as empty objects; the HTML rule is to refuse them). The
 * `transfer` option is refused when non-empty: QuickJS cannot detach an ArrayBuffer.
 *
 * Kinds are told apart by brand checks, each tried only on an instance of its class or a value
 * whose tag names it (a failed check throws, and a throw deep in a nested value costs a stack
 * trace per level). A built-in whose prototype was swapped away is copied as a plain object. */
(function (require, natives, name) {
  "use strict";
  const text = require("internal/text");
  const { DOMException, codedError } = text;
  // Builtins from natives.primordials (captured before guest code); the brand-check getters and the
  // Date/Set/boxed-primitive methods below are read when this module first loads (docs/primordials.md).
  const P = natives.primordials, u = P.uncurry;
  const { ReflectApply, ObjectKeys, ObjectFreeze, ObjectDefineProperty, ObjectCreate, ObjectHasOwn, ArrayIsArray, StringCtor, MapCtor, list } = P;
  const MapGet = u(P.MapPrototypeGet), MapSet = u(P.MapPrototypeSet), MapHas = u(P.MapPrototypeHas);
  const MapForEach = u(P.MapPrototypeForEach), StringSlice = u(P.StringPrototypeSlice);
  const ArrayBufferSlice = (b) => new Uint8Array(new Uint8Array(b)).buffer; // a copy, no method read
  const objectToString = u(P.ObjectPrototypeToString);
  const getter = (proto, key) => P.ReflectGetOwnPropertyDescriptor(proto, key).get;
  const call = (f, self) => ReflectApply(f, self, []);
  const DateGetTime = Date.prototype.getTime, SetForEach = Set.prototype.forEach, SetAdd = Set.prototype.add;
  const WeakMapHas = WeakMap.prototype.has, WeakSetHas = WeakSet.prototype.has;
  const WeakRefDeref = typeof WeakRef === "function" ? WeakRef.prototype.deref : null;
  const RegExpFlags = getter(RegExp.prototype, "flags");
  const typedArrayTag = getter(P.ObjectGetPrototypeOf(Uint8Array.prototype), Symbol.toStringTag);
  const abByteLength = getter(ArrayBuffer.prototype, "byteLength");
  const dvBuffer = getter(DataView.prototype, "buffer");
  const mapSize = getter(Map.prototype, "size");
  const setSize = getter(Set.prototype, "size");
  const regexpSource = getter(RegExp.prototype, "source");

  const is = (check, Ctor, tag) => {
    const tagText = "[object " + tag + "]";
    return (v) => {
      if (!(v instanceof Ctor) && objectToString(v) !== tagText) return false;
      try { check(v); return true; } catch (_) { return false; }
    };
  };
  const isArrayBuffer = is((v) => call(abByteLength, v), ArrayBuffer, "ArrayBuffer");
  const isDataView = is((v) => call(dvBuffer, v), DataView, "DataView");
  const isMap = is((v) => call(mapSize, v), Map, "Map");
  const isSet = is((v) => call(setSize, v), Set, "Set");
  const isDate = is((v) => call(DateGetTime, v), Date, "Date");
  const regexpBrand = is((x) => call(regexpSource, x), RegExp, "RegExp");
  const RegExpProto = RegExp.prototype;
  const isRegExp = (v) => v !== RegExpProto && regexpBrand(v);
  const isWeakMap = is((v) => ReflectApply(WeakMapHas, v, [{}]), WeakMap, "WeakMap");
  const isWeakSet = is((v) => ReflectApply(WeakSetHas, v, [{}]), WeakSet, "WeakSet");
  const isWeakRef = WeakRefDeref !== null ? is((v) => call(WeakRefDeref, v), WeakRef, "WeakRef") : () => false;
  const isPromise = (v) => v instanceof P.PromiseCtor || objectToString(v) === "[object Promise]";
  const box = (Box, tag) => { const b = list(); b[0] = Box; b[1] = tag; b[2] = Box.prototype.valueOf; return b; };
  const BOXES = list();
  BOXES[0] = box(Number, "Number"); BOXES[1] = box(String, "String"); BOXES[2] = box(Boolean, "Boolean"); BOXES[3] = box(BigInt, "BigInt");
  const SymbolValueOf = Symbol.prototype.valueOf, FunctionToString = Function.prototype.toString;

  const ERROR_TYPES = { __proto__: null, Error, EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError };

  function cloneError(value) {
    throw new DOMException(value + " could not be cloned.", "DataCloneError");
  }

  function describe(v) {
    if (typeof v === "function") {
      try { return call(FunctionToString, v); } catch (_) { return "function"; }
    }
    if (typeof v === "symbol") return StringCtor(v);
    const tag = StringSlice(objectToString(v), 8, -1);
    return "#<" + tag + ">";
  }

  // Event-model instances, recognised by identity of their classes (loaded lazily: cloning must
  // not force internal/abort into a run that never used it, and it requires internal/text).
  function isEventObject(v) {
    let abort;
    try { abort = require("internal/abort"); } catch (_) { return false; }
    return v instanceof abort.EventTarget || v instanceof abort.Event || v instanceof abort.AbortController;
  }

  function structuredClone(value, options) {
    if (arguments.length === 0) throw codedError(TypeError, "ERR_MISSING_ARGS", "The value argument must be specified");
    if (options !== undefined && options !== null && typeof options !== "object")
      throw codedError(TypeError, "ERR_INVALID_ARG_TYPE", "The options argument must be either an object or undefined");
    if (options && options.transfer !== undefined) {
      const list = options.transfer;
      if (list === null || typeof list !== "object" || typeof list[Symbol.iterator] !== "function")
        throw codedError(TypeError, "ERR_INVALID_ARG_TYPE", "Optional transferList argument must be an iterable");
      for (const item of list) { // the guest's iterable
        if (!isArrayBuffer(item)) throw codedError(TypeError, "ERR_INVALID_TRANSFER_OBJECT", "Found invalid object in transferList");
        throw new DOMException("structuredClone: transferring an ArrayBuffer is not supported in chidori " +
          "(buffers cannot be detached); clone without the transfer option", "DataCloneError");
      }
    }
    const memory = new MapCtor();
    return clone(value, memory);
  }

  function clone(value, memory) {
    const type = typeof value;
    if (type === "symbol" || type === "function") cloneError(describe(value));
    if (value === null || type !== "object") return value;
    if (MapHas(memory, value)) return MapGet(memory, value);

    let out;
    if (ArrayIsArray(value)) {
      out = new Array(value.length);
      MapSet(memory, value, out);
      const ks = ObjectKeys(value);
      for (let i = 0; i < ks.length; i++) P.defineValue(out, ks[i], clone(value[ks[i]], memory));
      return out;
    }
    if (isDate(value)) {
      out = new Date(call(DateGetTime, value));
      MapSet(memory, value, out);
      return out;
    }
    if (isRegExp(value)) {
      out = new P.RegExpCtor(call(regexpSource, value), call(RegExpFlags, value));
      MapSet(memory, value, out);
      return out;
    }
    if (isArrayBuffer(value)) {
      out = ArrayBufferSlice(value, 0);
      MapSet(memory, value, out);
      return out;
    }
    const typedTag = call(typedArrayTag, value);
    if (typedTag !== undefined) {
      const buffer = clone(value.buffer, memory);
      out = new TYPED[typedTag](buffer, value.byteOffset, value.length);
      MapSet(memory, value, out);
      return out;
    }
    if (isDataView(value)) {
      const buffer = clone(call(dvBuffer, value), memory);
      out = new DataView(buffer, value.byteOffset, value.byteLength);
      MapSet(memory, value, out);
      return out;
    }
    if (isMap(value)) {
      out = new MapCtor();
      MapSet(memory, value, out);
      const pairs = list();
      MapForEach(value, (v, k) => { pairs[pairs.length] = k; pairs[pairs.length] = v; });
      for (let i = 0; i < pairs.length; i += 2) MapSet(out, clone(pairs[i], memory), clone(pairs[i + 1], memory));
      return out;
    }
    if (isSet(value)) {
      out = new Set();
      MapSet(memory, value, out);
      const items = list();
      ReflectApply(SetForEach, value, [(v) => { items[items.length] = v; }]);
      for (let i = 0; i < items.length; i++) ReflectApply(SetAdd, out, [clone(items[i], memory)]);
      return out;
    }
    const boxed = unbox(value);
    if (boxed !== undefined) {
      out = boxed;
      MapSet(memory, value, out);
      return out;
    }
    if (value instanceof DOMException) {
      out = new DOMException(value.message, value.name);
      MapSet(memory, value, out);
      return out;
    }
    if (value instanceof Error || objectToString(value) === "[object Error]") return cloneErrorObject(value, memory);
    if (isPromise(value) || isWeakMap(value) || isWeakSet(value) || isWeakRef(value) || isEventObject(value)) {
      cloneError(describe(value));
    }
    const Blob = blobClass();
    if (Blob && value instanceof Blob) {
      out = value.slice(0, value.size, value.type);
      MapSet(memory, value, out);
      return out;
    }
    out = {};
    MapSet(memory, value, out);
    const ks = ObjectKeys(value);
    for (let i = 0; i < ks.length; i++) P.defineValue(out, ks[i], clone(value[ks[i]], memory));
    return out;
  }

  // the typed-array classes by tag, taken when this module loads
  const TYPED = { __proto__: null };
  {
    const names = ["Int8Array", "Uint8Array", "Uint8ClampedArray", "Int16Array", "Uint16Array", "Int32Array", "Uint32Array",
      "Float32Array", "Float64Array", "BigInt64Array", "BigUint64Array", "Float16Array"];
    for (let i = 0; i < names.length; i++) if (typeof globalThis[names[i]] === "function") TYPED[names[i]] = globalThis[names[i]];
  }

  function blobClass() {
    try { return require("internal/blob").Blob; } catch (_) { return null; }
  }

  // A copy of a boxed primitive (a boxed Symbol is refused), or undefined.
  function unbox(value) {
    const tag = objectToString(value);
    for (let i = 0; i < BOXES.length; i++) {
      const Box = BOXES[i][0], boxTag = BOXES[i][1];
      if (!(value instanceof Box) && tag !== "[object " + boxTag + "]") continue;
      let prim;
      try { prim = call(BOXES[i][2], value); } catch (_) { continue; }
      return Object(prim);
    }
    if (value instanceof Symbol || tag === "[object Symbol]") {
      let isSymbolBox = false;
      try { call(SymbolValueOf, value); isSymbolBox = true; } catch (_) { isSymbolBox = false; }
      if (isSymbolBox) cloneError(tag);
    }
    return undefined;
  }

  // An error clone keeps its kind (by name, among the standard ones), message, stack and cause.
  function cloneErrorObject(value, memory) {
    let errName = "Error";
    try {
      const n = value.name;
      if (typeof n === "string" && ObjectHasOwn(ERROR_TYPES, n)) errName = n;
    } catch (_) { errName = "Error"; }
    const out = ObjectCreate(ERROR_TYPES[errName].prototype);
    MapSet(memory, value, out);
    const own = (k) => P.ReflectGetOwnPropertyDescriptor(value, k);
    const hidden = (v) => ({ __proto__: null, value: v, writable: true, configurable: true, enumerable: false });
    const m = own("message");
    if (m && ObjectHasOwn(m, "value") && m.value !== undefined) ObjectDefineProperty(out, "message", hidden(StringCtor(m.value)));
    let stack;
    try { stack = value.stack; } catch (_) { stack = undefined; }
    if (typeof stack === "string") ObjectDefineProperty(out, "stack", hidden(stack));
    const c = own("cause");
    if (c && ObjectHasOwn(c, "value")) ObjectDefineProperty(out, "cause", hidden(clone(c.value, memory)));
    return out;
  }

  return ObjectFreeze({ structuredClone });
})
