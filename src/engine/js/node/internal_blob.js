/* node/internal_blob.js — Blob and File (node:buffer re-exports them; the globals are these):
 * immutable bytes with a MIME type, and a name and lastModified for File. `bytesOf` gives fetch and
 * FormData the bytes of a Blob synchronously (this module is internal: guests cannot reach it).
 * Pure computation over guest values. */
(function (require, natives, name) {
  "use strict";
  const text = require("internal/text");
  const { invalidArgType } = text;

  const blobBytes = new WeakMap();

  function partBytes(part) {
    if (typeof part === "string") return text.utf8Encode(part);
    if (part instanceof Blob) return blobBytes.get(part);
    const b = text.bytesOf(part);
    if (b !== null) return b.slice();
    return text.utf8Encode(String(part));
  }

  class Blob {
    constructor(sources, options) {
      if (sources === undefined) sources = [];
      if (sources === null || typeof sources !== "object" || typeof sources[Symbol.iterator] !== "function")
        throw invalidArgType("sources", "a sequence", sources);
      const parts = [];
      let total = 0;
      for (const s of sources) {
        const b = partBytes(s);
        parts.push(b);
        total += b.length;
      }
      const bytes = new Uint8Array(total);
      let at = 0;
      for (const b of parts) { bytes.set(b, at); at += b.length; }
      blobBytes.set(this, bytes);
      const type = options && options.type !== undefined ? String(options.type) : "";
      Object.defineProperty(this, "_type", { value: /^[\u0020-\u007e]*$/.test(type) ? type.toLowerCase() : "" });
    }
    get size() { return blobBytes.get(this).length; }
    get type() { return this._type; }
    slice(start, end, type) {
      const bytes = blobBytes.get(this);
      const len = bytes.length;
      const rel = (v, d) => (v === undefined ? d : v < 0 ? Math.max(len + v, 0) : Math.min(v, len));
      const s = rel(start, 0), e = rel(end, len);
      return new Blob([bytes.subarray(s, Math.max(s, e))], { type: type === undefined ? "" : type });
    }
    text() { return Promise.resolve(text.utf8Decode(blobBytes.get(this))); }
    arrayBuffer() { const b = blobBytes.get(this).slice(); return Promise.resolve(b.buffer); }
    bytes() { return Promise.resolve(blobBytes.get(this).slice()); }
    stream() { return require("internal/webstreams").readableOfBytes(blobBytes.get(this).slice()); }
  }
  Object.defineProperty(Blob.prototype, Symbol.toStringTag, { value: "Blob", configurable: true });

  class File extends Blob {
    constructor(bits, fileName, options) {
      super(bits, options);
      Object.defineProperty(this, "_name", { value: String(fileName) });
      const lm = options && options.lastModified !== undefined ? +options.lastModified : natives.now();
      Object.defineProperty(this, "_lastModified", { value: lm });
    }
    get name() { return this._name; }
    get lastModified() { return this._lastModified; }
  }
  Object.defineProperty(File.prototype, Symbol.toStringTag, { value: "File", configurable: true });

  const isBlob = (x) => blobBytes.has(x);
  // The bytes of a Blob (not a copy: callers must not write to them), or null.
  const bytesOf = (x) => blobBytes.get(x) || null;

  return Object.freeze({ Blob, File, isBlob, bytesOf });
})
