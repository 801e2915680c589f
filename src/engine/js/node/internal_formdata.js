/* node/internal_formdata.js — FormData (the global) and its multipart/form-data encoding for fetch
 * bodies.
 *
 * Entries are [name, string | File] in order, as the XHR spec keeps them. The encoding follows
 * the HTML spec's multipart/form-data algorithm (names and file names escape `"`, CR and LF as
 * %22/%0D/%0A; string values have their line breaks normalized to CRLF). The boundary is built from
 * a per-run counter, not from random bytes, so a run and its replay send the same request bytes.
 * Pure computation over guest values. */
(function (require, natives, name) {
  "use strict";
  const text = require("internal/text");
  const { invalidArgType, missingArgs } = text;
  const blobs = require("internal/blob");

  const entriesOf = new WeakMap(); // FormData -> [[name, value], ...]

  function listOf(fd, what) {
    const l = entriesOf.get(fd);
    if (!l) throw new TypeError("FormData." + what + ": `this` is not a FormData");
    return l;
  }

  // A USVString: lone surrogates become U+FFFD.
  function usv(s) {
    s = String(s);
    return typeof s.toWellFormed === "function" ? s.toWellFormed() : s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd");
  }

  // The entry value for (value, filename): a string, or a File (a Blob becomes a File named "blob").
  function entryValue(value, filename, nargs, what) {
    if (blobs.isBlob(value)) {
      const isFile = Object.prototype.toString.call(value) === "[object File]";
      if (isFile && filename === undefined) return value;
      const n = filename !== undefined ? usv(filename) : isFile ? value.name : "blob";
      const opts = { type: value.type };
      if (isFile) opts.lastModified = value.lastModified;
      return new blobs.File([value], n, opts);
    }
    if (nargs > 2 && filename !== undefined) throw invalidArgType("value", "a Blob when a filename is given to FormData." + what, value);
    return usv(value);
  }

  class FormData {
    constructor(form) {
      if (form !== undefined) throw new TypeError("FormData: there is no HTML form to read in chidori; call new FormData() and append()");
      entriesOf.set(this, []);
    }
    append(name, value, filename) {
      const l = listOf(this, "append");
      if (arguments.length < 2) throw missingArgs("name", "value");
      l.push([usv(name), entryValue(value, filename, arguments.length, "append")]);
    }
    set(name, value, filename) {
      const l = listOf(this, "set");
      if (arguments.length < 2) throw missingArgs("name", "value");
      const n = usv(name);
      const entry = [n, entryValue(value, filename, arguments.length, "set")];
      const i = l.findIndex((e) => e[0] === n);
      if (i < 0) { l.push(entry); return; }
      l[i] = entry;
      for (let j = l.length - 1; j > i; j--) if (l[j][0] === n) l.splice(j, 1);
    }
    delete(name) {
      const l = listOf(this, "delete");
      const n = usv(name);
      for (let j = l.length - 1; j >= 0; j--) if (l[j][0] === n) l.splice(j, 1);
    }
    get(name) {
      const n = usv(name);
      const e = listOf(this, "get").find((x) => x[0] === n);
      return e === undefined ? null : e[1];
    }
    getAll(name) {
      const n = usv(name);
      return listOf(this, "getAll").filter((x) => x[0] === n).map((x) => x[1]);
    }
    has(name) {
      const n = usv(name);
      return listOf(this, "has").some((x) => x[0] === n);
    }
    forEach(callback, thisArg) {
      if (typeof callback !== "function") throw invalidArgType("callback", "a function", callback);
      for (const [k, v] of this.entries()) Reflect.apply(callback, thisArg, [v, k, this]);
    }
    *entries() {
      const l = listOf(this, "entries");
      for (let i = 0; i < l.length; i++) yield [l[i][0], l[i][1]];
    }
    *keys() { for (const [k] of this.entries()) yield k; }
    *values() { for (const [, v] of this.entries()) yield v; }
    [Symbol.iterator]() { return this.entries(); }
    get [Symbol.toStringTag]() { return "FormData"; }
  }

  let boundaries = 0;
  const escapeName = (s) => s.replace(/\n/g, "%0A").replace(/\r/g, "%0D").replace(/"/g, "%22");

  // {bytes, type} of a FormData, as fetch sends it.
  function encodeMultipart(fd) {
    const l = listOf(fd, "encode");
    boundaries++;
    const boundary = "----formdata-chidori-" + String(boundaries).padStart(12, "0");
    const parts = [];
    let total = 0;
    const add = (b) => { parts.push(b); total += b.length; };
    for (const [k, v] of l) {
      let head = "--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + escapeName(k) + "\"";
      if (typeof v === "string") {
        add(text.utf8Encode(head + "\r\n\r\n" + v.replace(/\r(?!\n)|(?<!\r)\n/g, "\r\n") + "\r\n"));
      } else {
        head += "; filename=\"" + escapeName(v.name) + "\"\r\nContent-Type: " + (v.type || "application/octet-stream") + "\r\n\r\n";
        add(text.utf8Encode(head));
        add(blobs.bytesOf(v));
        add(text.utf8Encode("\r\n"));
      }
    }
    add(text.utf8Encode("--" + boundary + "--\r\n"));
    const bytes = new Uint8Array(total);
    let at = 0;
    for (const b of parts) { bytes.set(b, at); at += b.length; }
    return { bytes, type: "multipart/form-data; boundary=" + boundary };
  }

  const isFormData = (x) => entriesOf.has(x);

  return Object.freeze({ FormData, encodeMultipart, isFormData });
})
