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
  // On builtins captured before guest code (natives.primordials): the request body fetch sends for
  // a FormData is built without reading a guest-writable property.
  const text = require("internal/text");
  const { invalidArgType, missingArgs } = text;
  const blobs = require("internal/blob");
  const P = natives.primordials, u = P.uncurry;
  const { ReflectApply, StringCtor, ObjectFreeze, TypeErrorCtor, list, rec } = P;
  const WeakMapGet = u(P.WeakMapPrototypeGet), WeakMapSet = u(P.WeakMapPrototypeSet), WeakMapHas = u(P.WeakMapPrototypeHas);
  const TypedArraySet = u(P.TypedArrayPrototypeSet), StringPadStart = u(P.StringPrototypePadStart);
  const StringCharCodeAt = u(P.StringPrototypeCharCodeAt), StringSlice = u(P.StringPrototypeSlice);
  const ArraySplice = u(P.ArrayPrototypeSplice);
  const push = (l, v) => { l[l.length] = v; };
  const entry = (n, v) => { const e = list(); e[0] = n; e[1] = v; return e; };

  const entriesOf = new WeakMap(); // FormData -> list of entry(name, value)

  function listOf(fd, what) {
    const l = WeakMapGet(entriesOf, fd);
    if (!l) throw new TypeErrorCtor("FormData." + what + ": `this` is not a FormData");
    return l;
  }

  // A USVString: lone surrogates become U+FFFD.
  function usv(s) {
    s = StringCtor(s);
    const n = s.length;
    let out = null, from = 0;
    for (let i = 0; i < n; i++) {
      const c = StringCharCodeAt(s, i);
      if (c < 0xd800 || c > 0xdfff) continue;
      if (c <= 0xdbff && i + 1 < n) {
        const d = StringCharCodeAt(s, i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) { i++; continue; }
      }
      out = (out === null ? "" : out) + StringSlice(s, from, i) + "\ufffd";
      from = i + 1;
    }
    return out === null ? s : out + StringSlice(s, from);
  }

  // The entry value for (value, filename): a string, or a File (a Blob becomes a File named "blob").
  function entryValue(value, filename, nargs, what) {
    if (blobs.isBlob(value)) {
      const isFile = blobs.isFile(value);
      if (isFile && filename === undefined) return value;
      const n = filename !== undefined ? usv(filename) : isFile ? blobs.nameOf(value) : "blob";
      const opts = rec({ type: blobs.typeOf(value) });
      if (isFile) opts.lastModified = value.lastModified;
      const parts = list();
      parts[0] = value;
      return new blobs.File(parts, n, opts);
    }
    if (nargs > 2 && filename !== undefined) throw invalidArgType("value", "a Blob when a filename is given to FormData." + what, value);
    return usv(value);
  }

  class FormData {
    constructor(form) {
      if (form !== undefined) throw new TypeErrorCtor("FormData: there is no HTML form to read in chidori; call new FormData() and append()");
      WeakMapSet(entriesOf, this, list());
    }
    append(name, value, filename) {
      const l = listOf(this, "append");
      if (arguments.length < 2) throw missingArgs("name", "value");
      push(l, entry(usv(name), entryValue(value, filename, arguments.length, "append")));
    }
    set(name, value, filename) {
      const l = listOf(this, "set");
      if (arguments.length < 2) throw missingArgs("name", "value");
      const n = usv(name);
      const e = entry(n, entryValue(value, filename, arguments.length, "set"));
      let i = 0;
      while (i < l.length && l[i][0] !== n) i++;
      if (i === l.length) { push(l, e); return; }
      l[i] = e;
      for (let j = l.length - 1; j > i; j--) if (l[j][0] === n) ArraySplice(l, j, 1);
    }
    delete(name) {
      const l = listOf(this, "delete");
      const n = usv(name);
      for (let j = l.length - 1; j >= 0; j--) if (l[j][0] === n) ArraySplice(l, j, 1);
    }
    get(name) {
      const n = usv(name), l = listOf(this, "get");
      for (let i = 0; i < l.length; i++) if (l[i][0] === n) return l[i][1];
      return null;
    }
    getAll(name) {
      const n = usv(name), l = listOf(this, "getAll"), out = [];
      for (let i = 0; i < l.length; i++) if (l[i][0] === n) P.defineValue(out, out.length, l[i][1]);
      return out;
    }
    has(name) {
      const n = usv(name), l = listOf(this, "has");
      for (let i = 0; i < l.length; i++) if (l[i][0] === n) return true;
      return false;
    }
    forEach(callback, thisArg) {
      if (typeof callback !== "function") throw invalidArgType("callback", "a function", callback);
      const l = listOf(this, "forEach");
      for (let i = 0; i < l.length; i++) ReflectApply(callback, thisArg, [l[i][1], l[i][0], this]);
    }
    *entries() {
      const l = listOf(this, "entries");
      for (let i = 0; i < l.length; i++) yield [l[i][0], l[i][1]];
    }
    *keys() { const l = listOf(this, "keys"); for (let i = 0; i < l.length; i++) yield l[i][0]; }
    *values() { const l = listOf(this, "values"); for (let i = 0; i < l.length; i++) yield l[i][1]; }
    [Symbol.iterator]() { return this.entries(); }
    get [Symbol.toStringTag]() { return "FormData"; }
  }

  let boundaries = 0;
  // `"`, CR and LF in a name or file name as %22, %0D, %0A
  function escapeName(s) {
    let out = "", from = 0;
    for (let i = 0; i < s.length; i++) {
      const c = StringCharCodeAt(s, i);
      const esc = c === 10 ? "%0A" : c === 13 ? "%0D" : c === 34 ? "%22" : null;
      if (esc !== null) { out += StringSlice(s, from, i) + esc; from = i + 1; }
    }
    return from === 0 ? s : out + StringSlice(s, from);
  }
  // every lone CR or lone LF as CRLF
  function crlf(s) {
    let out = "", from = 0;
    for (let i = 0; i < s.length; i++) {
      const c = StringCharCodeAt(s, i);
      if (c === 13 && StringCharCodeAt(s, i + 1) === 10) { i++; continue; }
      if (c === 13 || c === 10) { out += StringSlice(s, from, i) + "\r\n"; from = i + 1; }
    }
    return from === 0 ? s : out + StringSlice(s, from);
  }

  // {bytes, type} of a FormData, as fetch sends it.
  function encodeMultipart(fd) {
    const l = listOf(fd, "encode");
    boundaries++;
    const boundary = "----formdata-chidori-" + StringPadStart(StringCtor(boundaries), 12, "0");
    const parts = list();
    let total = 0;
    const add = (b) => { push(parts, b); total += b.length; };
    for (let i = 0; i < l.length; i++) {
      const k = l[i][0], v = l[i][1];
      let head = "--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + escapeName(k) + "\"";
      if (typeof v === "string") {
        add(text.utf8Encode(head + "\r\n\r\n" + crlf(v) + "\r\n"));
      } else {
        head += "; filename=\"" + escapeName(blobs.nameOf(v)) + "\"\r\nContent-Type: " + (blobs.typeOf(v) || "application/octet-stream") + "\r\n\r\n";
        add(text.utf8Encode(head));
        add(blobs.bytesOf(v));
        add(text.utf8Encode("\r\n"));
      }
    }
    add(text.utf8Encode("--" + boundary + "--\r\n"));
    const bytes = new Uint8Array(total);
    let at = 0;
    for (let i = 0; i < parts.length; i++) { TypedArraySet(bytes, parts[i], at); at += parts[i].length; }
    return rec({ bytes, type: "multipart/form-data; boundary=" + boundary });
  }

  const isFormData = (x) => WeakMapHas(entriesOf, x);

  return ObjectFreeze({ FormData, encodeMultipart, isFormData });
})
