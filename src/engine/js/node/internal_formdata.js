/* node/internal_formdata.js — FormData (the global), its multipart/form-data encoding for fetch
 * bodies, and the parsing of multipart/form-data and application/x-www-form-urlencoded bodies for
 * Response#formData() and Request#formData() (untrusted bytes: size-limited, see below).
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
  const { ReflectApply, StringCtor, ObjectFreeze, TypeErrorCtor, JSONStringify, list, rec } = P;
  const WeakMapGet = u(P.WeakMapPrototypeGet), WeakMapSet = u(P.WeakMapPrototypeSet), WeakMapHas = (m, k) => WeakMapGet(m, k) !== undefined;
  const TypedArraySet = u(P.TypedArrayPrototypeSet), TypedArraySlice = u(P.TypedArrayPrototypeSlice), StringPadStart = (s, n, ch) => { while (s.length < n) s = ch + s; return s; };
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
      const opts = { __proto__: null, type: blobs.typeOf(value) };
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
    return { __proto__: null, bytes, type: "multipart/form-data; boundary=" + boundary };
  }

  const isFormData = (x) => WeakMapHas(entriesOf, x);

  /* ---- parsing a body: Response#formData() and Request#formData() ----
   * Untrusted bytes (a response from anywhere), so: at most FORM_MAX_BYTES, a boundary of at most
   * BOUNDARY_MAX bytes, one pass with a bounded search, and every failure a TypeError that says what
   * was wrong. multipart/form-data follows the Fetch standard's parser as Node 20 applies it (the
   * body starts with the delimiter; a part's Content-Disposition is exactly `form-data; name="…"`
   * with an optional `; filename="…"`; %0A, %0D and %22 in those become LF, CR and '"'; a part
   * with a filename becomes a File of its Content-Type, or text/plain; base64 transfer encoding is
   * decoded); application/x-www-form-urlencoded is the URL standard's parser. */

  const FORM_MAX_BYTES = 32 * 1024 * 1024;
  const BOUNDARY_MAX = 200;
  const ArrayIndexOf = u(P.ArrayPrototypeIndexOf), StringToLowerCase = u(P.StringPrototypeToLowerCase);
  const StringIndexOf = u(P.StringPrototypeIndexOf);
  const TypedArraySubarray = u(P.TypedArrayPrototypeSubarray);

  function formError(what, why) {
    return new TypeErrorCtor(what + ".formData(): " + why);
  }

  const isHttpSpace = (c) => c === 9 || c === 10 || c === 13 || c === 32;
  function trimHttp(s) {
    let a = 0, b = s.length;
    while (a < b && isHttpSpace(StringCharCodeAt(s, a))) a++;
    while (b > a && isHttpSpace(StringCharCodeAt(s, b - 1))) b--;
    return StringSlice(s, a, b);
  }

  // A Content-Type as {essence, params}: the lower-case type/subtype and a prototype-less record of
  // lower-case parameter names to values (quoted values unquoted, backslash escapes kept as the
  // MIME Sniffing standard reads them). Null when there is no type/subtype.
  function parseContentType(value) {
    if (value === null) return null;
    const semi = StringIndexOf(value, ";");
    const essence = StringToLowerCase(trimHttp(semi < 0 ? value : StringSlice(value, 0, semi)));
    const slash = StringIndexOf(essence, "/");
    if (slash <= 0 || slash === essence.length - 1) return null;
    const params = { __proto__: null };
    let i = semi < 0 ? value.length : semi + 1;
    while (i < value.length) {
      while (i < value.length && isHttpSpace(StringCharCodeAt(value, i))) i++;
      let j = i;
      while (j < value.length && StringCharCodeAt(value, j) !== 59 && StringCharCodeAt(value, j) !== 61) j++;
      const pname = StringToLowerCase(StringSlice(value, i, j));
      if (j >= value.length || StringCharCodeAt(value, j) === 59) { i = j + 1; continue; }
      j++; // '='
      let pvalue = "";
      if (j < value.length && StringCharCodeAt(value, j) === 34) {
        j++;
        while (j < value.length && StringCharCodeAt(value, j) !== 34) {
          if (StringCharCodeAt(value, j) === 92 && j + 1 < value.length) j++;
          pvalue += StringSlice(value, j, j + 1);
          j++;
        }
        while (j < value.length && StringCharCodeAt(value, j) !== 59) j++;
      } else {
        const start = j;
        while (j < value.length && StringCharCodeAt(value, j) !== 59) j++;
        pvalue = trimHttp(StringSlice(value, start, j));
      }
      if (pname !== "" && !P.ObjectHasOwn(params, pname)) params[pname] = pvalue;
      i = j + 1;
    }
    return { __proto__: null, essence, params };
  }

  // The URL standard's application/x-www-form-urlencoded parser over bytes.
  function parseUrlencoded(bytes, fd) {
    const hex = (c) => (c >= 48 && c <= 57 ? c - 48 : c >= 65 && c <= 70 ? c - 55 : c >= 97 && c <= 102 ? c - 87 : -1);
    const decode = (a, b) => { // bytes[a..b): '+' as space, %XX decoded, then UTF-8
      const out = new Uint8Array(b - a);
      let o = 0;
      for (let i = a; i < b; i++) {
        const c = bytes[i];
        if (c === 43) out[o++] = 32;
        else if (c === 37 && i + 2 < b && hex(bytes[i + 1]) >= 0 && hex(bytes[i + 2]) >= 0) {
          out[o++] = hex(bytes[i + 1]) * 16 + hex(bytes[i + 2]);
          i += 2;
        } else out[o++] = c;
      }
      return text.utf8Decode(out, 0, o);
    };
    const n = bytes.length;
    for (let a = 0; a < n;) {
      let b = a;
      while (b < n && bytes[b] !== 38) b++;
      if (b > a) {
        let eq = a;
        while (eq < b && bytes[eq] !== 61) eq++;
        push(listOf(fd, "parse"), entry(decode(a, eq), eq < b ? decode(eq + 1, b) : ""));
      }
      a = b + 1;
    }
    return fd;
  }

  // Index of `needle` (bytes) in bytes from `from`, or -1 (needle is short: at most BOUNDARY_MAX + 4).
  function find(bytes, needle, from) {
    const n = bytes.length, m = needle.length, first = needle[0];
    for (let i = from; i + m <= n; i++) {
      if (bytes[i] !== first) continue;
      let k = 1;
      while (k < m && bytes[i + k] === needle[k]) k++;
      if (k === m) return i;
    }
    return -1;
  }
  const startsAt = (bytes, needle, at) => {
    if (at + needle.length > bytes.length) return false;
    for (let k = 0; k < needle.length; k++) if (bytes[at + k] !== needle[k]) return false;
    return true;
  };

  // %0A, %0D and %22 in a header's name or filename as LF, CR and '"'
  function unescapeField(s) {
    let out = "", from = 0;
    for (let i = 0; i + 2 < s.length; i++) {
      if (StringCharCodeAt(s, i) !== 37) continue;
      const code = StringSlice(s, i + 1, i + 3);
      const ch = code === "0A" || code === "0a" ? "\n" : code === "0D" || code === "0d" ? "\r" : code === "22" ? "\"" : null;
      if (ch === null) continue;
      out += StringSlice(s, from, i) + ch;
      from = i + 3;
      i += 2;
    }
    return from === 0 ? s : out + StringSlice(s, from);
  }

  // `form-data; name="…"` with an optional `; filename="…"`, as the Fetch standard reads it.
  function parseDisposition(v, what) {
    const HEAD = "form-data; name=\"";
    if (StringSlice(v, 0, HEAD.length) !== HEAD) throw formError(what, "a part's Content-Disposition is not form-data; name=\"…\"");
    let i = HEAD.length;
    const close = StringIndexOf(v, "\"", i);
    if (close < 0) throw formError(what, "a part's name has no closing quote");
    const name = unescapeField(StringSlice(v, i, close));
    i = close + 1;
    let filename = null;
    const FILE = "; filename=\"";
    if (i < v.length) {
      if (StringSlice(v, i, i + FILE.length) !== FILE) throw formError(what, "a part's Content-Disposition has something after the name other than ; filename=\"…\"");
      const end = StringIndexOf(v, "\"", i + FILE.length);
      if (end < 0) throw formError(what, "a part's filename has no closing quote");
      filename = unescapeField(StringSlice(v, i + FILE.length, end));
      if (end + 1 !== v.length) throw formError(what, "a part's Content-Disposition has something after the filename");
    }
    return { __proto__: null, name, filename };
  }

  function parseMultipart(bytes, boundary, fd, what) {
    const delim = text.utf8Encode("--" + boundary), next = text.utf8Encode("\r\n--" + boundary);
    const n = bytes.length;
    if (!startsAt(bytes, delim, 0)) throw formError(what, "the body does not start with the boundary");
    let pos = delim.length;
    for (;;) {
      if (bytes[pos] === 45 && bytes[pos + 1] === 45) { // "--": the last delimiter
        pos += 2;
        if (pos === n || (pos + 2 === n && bytes[pos] === 13 && bytes[pos + 1] === 10)) return fd;
        throw formError(what, "there is data after the final boundary");
      }
      if (bytes[pos] !== 13 || bytes[pos + 1] !== 10) throw formError(what, "a boundary is not followed by CRLF");
      pos += 2;
      // header lines up to an empty line
      let disposition = null, type = null, base64 = false;
      for (;;) {
        let eol = pos;
        while (eol + 1 < n && !(bytes[eol] === 13 && bytes[eol + 1] === 10)) eol++;
        if (eol + 1 >= n) throw formError(what, "a part's headers do not end");
        if (eol === pos) { pos += 2; break; }
        const line = text.utf8Decode(bytes, pos, eol);
        pos = eol + 2;
        const colon = StringIndexOf(line, ":");
        if (colon <= 0) throw formError(what, "a part has a header line without a name");
        const hname = StringToLowerCase(trimHttp(StringSlice(line, 0, colon)));
        const hvalue = trimHttp(StringSlice(line, colon + 1));
        if (hname === "content-disposition") disposition = parseDisposition(hvalue, what);
        else if (hname === "content-type") type = hvalue;
        else if (hname === "content-transfer-encoding") {
          const enc = StringToLowerCase(hvalue);
          if (enc === "base64") base64 = true;
          else if (enc !== "binary" && enc !== "8bit" && enc !== "7bit") throw formError(what, "a part's Content-Transfer-Encoding is " + enc);
        }
      }
      if (disposition === null) throw formError(what, "a part has no Content-Disposition");
      const end = find(bytes, next, pos);
      if (end < 0) throw formError(what, "a part does not end with the boundary");
      let body = TypedArraySubarray(bytes, pos, end);
      if (base64) body = text.base64ToBytes(text.latin1Decode(body, 0, body.length, false));
      let value;
      if (disposition.filename !== null) {
        const parts = list();
        parts[0] = TypedArraySlice(body);
        value = new blobs.File(parts, disposition.filename, { __proto__: null, type: type === null ? "text/plain" : type });
      } else {
        value = text.utf8Decode(body);
      }
      push(listOf(fd, "parse"), entry(disposition.name, value));
      pos = end + next.length;
    }
  }

  // The FormData of a body (bytes) of the given Content-Type (a string or null), for
  // Response/Request#formData(); `what` names the class for error messages.
  function parseFormData(bytes, contentType, what) {
    if (bytes.length > FORM_MAX_BYTES)
      throw formError(what, "the body is larger than " + (FORM_MAX_BYTES >> 20) + " MiB, the limit for parsing it as FormData; read it with arrayBuffer() instead");
    const ct = parseContentType(contentType);
    const fd = new FormData();
    if (ct !== null && ct.essence === "application/x-www-form-urlencoded") return parseUrlencoded(bytes, fd);
    if (ct !== null && ct.essence === "multipart/form-data") {
      const boundary = ct.params.boundary;
      if (boundary === undefined || boundary === "") throw formError(what, "the multipart/form-data Content-Type has no boundary");
      if (boundary.length > BOUNDARY_MAX) throw formError(what, "the boundary is longer than " + BOUNDARY_MAX + " characters");
      return parseMultipart(bytes, boundary, fd, what);
    }
    throw formError(what, "the Content-Type is not multipart/form-data or application/x-www-form-urlencoded (it is " +
      (contentType === null ? "missing" : JSONStringify(contentType)) + ")");
  }

  return ObjectFreeze({ FormData, encodeMultipart, isFormData, parseFormData });
})
