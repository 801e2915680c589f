/* node/internal_blob.js — Blob and File (node:buffer re-exports them; the globals are these):
 * immutable bytes with a MIME type, and a name and lastModified for File. `bytesOf` gives fetch and
 * FormData the bytes of a Blob synchronously (this module is internal: guests cannot reach it).
 * Pure computation over guest values, on builtins captured before guest code (natives.primordials):
 * what fetch sends for a Blob or File body (its bytes, type and name) is read from state guests
 * cannot change. */
(function (require, natives, name) {
  "use strict";
  const text = require("internal/text");
  const { invalidArgType } = text;
  const P = natives.primordials, u = P.uncurry;
  const { StringCtor, ObjectDefineProperty, ObjectFreeze, MathMax, PromiseResolve, list, rec } = P;
  // globals and small forms in place of captures (docs/primordials.md: global bindings are not covered)
  const MathMin = (a, b) => (a < b ? a : b);
  const WeakMapGet = u(P.WeakMapPrototypeGet), WeakMapSet = u(P.WeakMapPrototypeSet), WeakMapHas = (m, k) => WeakMapGet(m, k) !== undefined;
  const TypedArraySlice = u(P.TypedArrayPrototypeSlice), TypedArraySubarray = u(P.TypedArrayPrototypeSubarray);
  const TypedArraySet = u(P.TypedArrayPrototypeSet), StringToLowerCase = u(P.StringPrototypeToLowerCase);
  const StringCharCodeAt = u(P.StringPrototypeCharCodeAt);
  const hidden = (v) => ({ __proto__: null, value: v });

  const blobBytes = new WeakMap();

  function partBytes(part) {
    if (typeof part === "string") return text.utf8Encode(part);
    if (part instanceof Blob) return WeakMapGet(blobBytes, part);
    const b = text.bytesOf(part);
    if (b !== null) return TypedArraySlice(b);
    return text.utf8Encode(StringCtor(part));
  }

  // A type of printable ASCII only, lower-cased; anything else is "".
  function blobType(type) {
    for (let i = 0; i < type.length; i++) {
      const c = StringCharCodeAt(type, i);
      if (c < 0x20 || c > 0x7e) return "";
    }
    return StringToLowerCase(type);
  }

  class Blob {
    constructor(sources, options) {
      if (sources === undefined) sources = [];
      if (sources === null || typeof sources !== "object" ||
          (!P.ArrayIsArray(sources) && typeof sources[Symbol.iterator] !== "function"))
        throw invalidArgType("sources", "a sequence", sources);
      // the sources are the guest's: a guest array is read by index, any other iterable as it iterates
      const parts = list();
      let total = 0;
      const add = (s) => {
        const b = partBytes(s);
        parts[parts.length] = b;
        total += b.length;
      };
      if (P.ArrayIsArray(sources)) { for (let i = 0; i < sources.length; i++) add(sources[i]); }
      else for (const s of sources) add(s);
      const bytes = new Uint8Array(total);
      let at = 0;
      for (let i = 0; i < parts.length; i++) { TypedArraySet(bytes, parts[i], at); at += parts[i].length; }
      WeakMapSet(blobBytes, this, bytes);
      const type = options && options.type !== undefined ? StringCtor(options.type) : "";
      ObjectDefineProperty(this, "_type", hidden(blobType(type)));
    }
    get size() { return WeakMapGet(blobBytes, this).length; }
    get type() { return this._type; }
    slice(start, end, type) {
      const bytes = WeakMapGet(blobBytes, this);
      const len = bytes.length;
      const rel = (v, d) => (v === undefined ? d : v < 0 ? MathMax(len + v, 0) : MathMin(v, len));
      const s = rel(start, 0), e = rel(end, len);
      const l = list();
      l[0] = TypedArraySubarray(bytes, s, MathMax(s, e));
      return new Blob(l, { __proto__: null, type: type === undefined ? "" : type });
    }
    text() { return PromiseResolve(text.utf8Decode(WeakMapGet(blobBytes, this))); }
    arrayBuffer() { const b = TypedArraySlice(WeakMapGet(blobBytes, this)); return PromiseResolve(b.buffer); }
    bytes() { return PromiseResolve(TypedArraySlice(WeakMapGet(blobBytes, this))); }
    stream() { return require("internal/webstreams").readableOfBytes(TypedArraySlice(WeakMapGet(blobBytes, this))); }
  }
  ObjectDefineProperty(Blob.prototype, Symbol.toStringTag, { __proto__: null, value: "Blob", configurable: true });

  class File extends Blob {
    constructor(bits, fileName, options) {
      super(bits, options);
      ObjectDefineProperty(this, "_name", hidden(StringCtor(fileName)));
      const lm = options && options.lastModified !== undefined ? +options.lastModified : natives.now();
      ObjectDefineProperty(this, "_lastModified", hidden(lm));
    }
    get name() { return this._name; }
    get lastModified() { return this._lastModified; }
  }
  ObjectDefineProperty(File.prototype, Symbol.toStringTag, { __proto__: null, value: "File", configurable: true });

  const isBlob = (x) => WeakMapHas(blobBytes, x);
  // The bytes of a Blob (not a copy: callers must not write to them), or null.
  const bytesOf = (x) => WeakMapGet(blobBytes, x) || null;
  // Its type and (for a File) name, from its own fixed properties (never the guest-writable getters).
  const typeOf = (x) => x._type;
  const nameOf = (x) => x._name;
  const isFile = (x) => WeakMapHas(blobBytes, x) && P.ObjectHasOwn(x, "_name");

  return ObjectFreeze({ Blob, File, isBlob, bytesOf, typeOf, nameOf, isFile });
})
