/* node/internal_clone.js — structuredClone: the HTML structured-clone algorithm over the values a
 * run can hold. Primitives, plain objects and arrays (own enumerable string keys, holes kept),
 * Date, RegExp, Map, Set, ArrayBuffer, typed arrays and DataView (views sharing a buffer still
 * share its copy), boxed primitives, Error types (name, message, stack, cause), DOMException and
 * Blob. Cycles and shared references are preserved.
 *
 * Not cloneable, with a DataCloneError (a DOMException, as in Node): functions, symbols, Promise,
 * WeakMap/WeakSet/WeakRef, and the event objects (EventTarget, Event, AbortSignal,
 * AbortController — Node copies those as empty objects; the HTML rule is to refuse them). The
 * `transfer` option is refused when non-empty: QuickJS cannot detach an ArrayBuffer. */
(function (require, natives, name) {
  "use strict";
  const text = require("internal/text");
  const { DOMException, codedError } = text;

  const objectToString = (v) => Object.prototype.toString.call(v);
  const getter = (proto, key) => Object.getOwnPropertyDescriptor(proto, key).get;
  const typedArrayTag = getter(Object.getPrototypeOf(Uint8Array.prototype), Symbol.toStringTag);
  const abByteLength = getter(ArrayBuffer.prototype, "byteLength");
  const dvBuffer = getter(DataView.prototype, "buffer");
  const mapSize = getter(Map.prototype, "size");
  const setSize = getter(Set.prototype, "size");
  const regexpSource = getter(RegExp.prototype, "source");

  const is = (check) => (v) => { try { check(v); return true; } catch (_) { return false; } };
  const isArrayBuffer = is((v) => abByteLength.call(v));
  const isDataView = is((v) => dvBuffer.call(v));
  const isMap = is((v) => mapSize.call(v));
  const isSet = is((v) => setSize.call(v));
  const isDate = is((v) => Date.prototype.getTime.call(v));
  const isRegExp = (v) => v !== RegExp.prototype && is((x) => regexpSource.call(x))(v);
  const isWeakMap = is((v) => WeakMap.prototype.has.call(v, {}));
  const isWeakSet = is((v) => WeakSet.prototype.has.call(v, {}));
  const isWeakRef = typeof WeakRef === "function" ? is((v) => WeakRef.prototype.deref.call(v)) : () => false;
  const isPromise = (v) => v instanceof Promise || is((x) => { if (Promise.resolve(x) !== x) throw 0; })(v);

  const ERROR_TYPES = { Error, EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError };

  function cloneError(value) {
    throw new DOMException(value + " could not be cloned.", "DataCloneError");
  }

  function describe(v) {
    if (typeof v === "function") {
      try { return Function.prototype.toString.call(v); } catch (_) { return "function"; }
    }
    if (typeof v === "symbol") return v.toString();
    const tag = objectToString(v).slice(8, -1);
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
      for (const item of list) {
        if (!isArrayBuffer(item)) throw codedError(TypeError, "ERR_INVALID_TRANSFER_OBJECT", "Found invalid object in transferList");
        throw new DOMException("structuredClone: transferring an ArrayBuffer is not supported in chidori " +
          "(buffers cannot be detached); clone without the transfer option", "DataCloneError");
      }
    }
    const memory = new Map();
    return clone(value, memory);
  }

  function clone(value, memory) {
    const type = typeof value;
    if (type === "symbol" || type === "function") cloneError(describe(value));
    if (value === null || type !== "object") return value;
    if (memory.has(value)) return memory.get(value);

    let out;
    if (Array.isArray(value)) {
      out = new Array(value.length);
      memory.set(value, out);
      for (const k of Object.keys(value)) out[k] = clone(value[k], memory);
      return out;
    }
    if (isDate(value)) {
      out = new Date(Date.prototype.getTime.call(value));
      memory.set(value, out);
      return out;
    }
    if (isRegExp(value)) {
      out = new RegExp(regexpSource.call(value), value.flags);
      memory.set(value, out);
      return out;
    }
    if (isArrayBuffer(value)) {
      out = value.slice(0);
      memory.set(value, out);
      return out;
    }
    const typedTag = typedArrayTag.call(value);
    if (typedTag !== undefined) {
      const buffer = clone(value.buffer, memory);
      out = new globalThis[typedTag](buffer, value.byteOffset, value.length);
      memory.set(value, out);
      return out;
    }
    if (isDataView(value)) {
      const buffer = clone(dvBuffer.call(value), memory);
      out = new DataView(buffer, value.byteOffset, value.byteLength);
      memory.set(value, out);
      return out;
    }
    if (isMap(value)) {
      out = new Map();
      memory.set(value, out);
      const entries = Array.from(Map.prototype.entries.call(value));
      for (const [k, v] of entries) out.set(clone(k, memory), clone(v, memory));
      return out;
    }
    if (isSet(value)) {
      out = new Set();
      memory.set(value, out);
      const items = Array.from(Set.prototype.values.call(value));
      for (const v of items) out.add(clone(v, memory));
      return out;
    }
    const boxed = unbox(value);
    if (boxed !== undefined) {
      out = boxed;
      memory.set(value, out);
      return out;
    }
    if (value instanceof DOMException) {
      out = new DOMException(value.message, value.name);
      memory.set(value, out);
      return out;
    }
    if (value instanceof Error || objectToString(value) === "[object Error]") return cloneErrorObject(value, memory);
    if (isPromise(value) || isWeakMap(value) || isWeakSet(value) || isWeakRef(value) || isEventObject(value)) {
      cloneError(describe(value));
    }
    const Blob = blobClass();
    if (Blob && value instanceof Blob) {
      out = value.slice(0, value.size, value.type);
      memory.set(value, out);
      return out;
    }
    out = {};
    memory.set(value, out);
    for (const k of Object.keys(value)) out[k] = clone(value[k], memory);
    return out;
  }

  function blobClass() {
    try { return require("buffer").Blob; } catch (_) { return null; }
  }

  function unbox(value) {
    const tries = [
      [Number, (v) => Number.prototype.valueOf.call(v)], [String, (v) => String.prototype.valueOf.call(v)],
      [Boolean, (v) => Boolean.prototype.valueOf.call(v)], [BigInt, (v) => BigInt.prototype.valueOf.call(v)],
    ];
    for (const [, read] of tries) {
      let prim;
      try { prim = read(value); } catch (_) { continue; }
      return Object(prim);
    }
    let isSymbolBox = false;
    try { Symbol.prototype.valueOf.call(value); isSymbolBox = true; } catch (_) { isSymbolBox = false; }
    if (isSymbolBox) cloneError(objectToString(value));
    return undefined;
  }

  // An error clone keeps its kind (by name, among the standard ones), message, stack and cause.
  function cloneErrorObject(value, memory) {
    let errName = "Error";
    try {
      const n = value.name;
      if (typeof n === "string" && Object.prototype.hasOwnProperty.call(ERROR_TYPES, n)) errName = n;
    } catch (_) { errName = "Error"; }
    const out = Object.create(ERROR_TYPES[errName].prototype);
    memory.set(value, out);
    const own = (k) => Object.getOwnPropertyDescriptor(value, k);
    const m = own("message");
    if (m && "value" in m && m.value !== undefined) {
      Object.defineProperty(out, "message", { value: String(m.value), writable: true, configurable: true, enumerable: false });
    }
    let stack;
    try { stack = value.stack; } catch (_) { stack = undefined; }
    if (typeof stack === "string") {
      Object.defineProperty(out, "stack", { value: stack, writable: true, configurable: true, enumerable: false });
    }
    const c = own("cause");
    if (c && "value" in c) {
      Object.defineProperty(out, "cause", { value: clone(c.value, memory), writable: true, configurable: true, enumerable: false });
    }
    return out;
  }

  return Object.freeze({ structuredClone });
})
