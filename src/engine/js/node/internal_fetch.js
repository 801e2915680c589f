/* node/internal_fetch.js — fetch, Headers, Request and Response (the WHATWG Fetch surface, where it
 * makes sense without streams), over the host's `http` op.
 *
 * One fetch is one `http` call: {method, url, headers: [[name, value], …], body: base64 | null,
 * redirect}. The host performs it behind the SSRF guard, follows redirects itself, and records it;
 * a replay answers from the call log. The call is synchronous inside the host, so an AbortSignal
 * can only stop a fetch before it starts (an already-aborted signal rejects with its reason);
 * nothing can interrupt a request in flight — the host's timeout bounds it.
 *
 * Bodies cross the seam whole (the host sends and receives them in one piece): Response.body is a
 * ReadableStream (internal/webstreams) over the whole body; a request body may be a string, bytes,
 * a Blob, FormData (multipart, internal/formdata), URLSearchParams or a ReadableStream / async
 * iterable, which is read to its end before the request is sent. Headers are ByteStrings as in browsers: names are
 * tokens, values hold no NUL/CR/LF and no character beyond U+00FF.
 *
 * `internals` (not reachable from guest code: this module is internal) carries the request plumbing
 * node:http(s) share.
 *
 * Primordials (docs/primordials.md): what decides a request's method, URL, headers and body runs on
 * builtins captured before guest code (natives.primordials): no live Array/String/RegExp/JSON/Object
 * method, no for…of or spread over our own lists, and the lists that go to the host have no prototype.
 * Guest objects (an init, a guest iterable of headers) are read as the guest made them.
 */
(function (require, natives, name) {
  "use strict";
  const P = natives.primordials, u = P.uncurry;
  const { ReflectApply, ReflectOwnKeys, JSONStringify, JSONParse, ArrayIsArray, StringCtor, NumberCtor, TypeErrorCtor, NumberIsInteger, PromiseCtor, PromiseResolve, PromiseReject, PromiseThen, PromiseOwn, ObjectFreeze, ObjectDefineProperty, ArrayBufferIsView, list, rec } = P;
  // globals and small forms in place of captures (docs/primordials.md: global bindings are not covered)
  const RangeErrorCtor = RangeError, Uint8ArrayCtor = Uint8Array;
  const StringToLowerCase = u(P.StringPrototypeToLowerCase), StringToUpperCase = (s) => text.asciiUpper(s); // methods are tokens: byte-uppercase
  const StringStartsWith = u(P.StringPrototypeStartsWith), StringSlice = u(P.StringPrototypeSlice);
  const StringCharCodeAt = u(P.StringPrototypeCharCodeAt), ArrayIndexOf = u(P.ArrayPrototypeIndexOf);
  const ArraySort = u(P.ArrayPrototypeSort), RegExpExec = u(P.RegExpPrototypeExec);
  const TypedArraySlice = u(P.TypedArrayPrototypeSlice), TypedArrayFill = u(P.TypedArrayPrototypeFill);
  const ObjectToString = u(P.ObjectPrototypeToString), GetOwnPropertyDescriptor = P.ReflectGetOwnPropertyDescriptor;
  const RegExpTest = (re, s) => RegExpExec(re, s) !== null;
  const has = (arr, v) => ArrayIndexOf(arr, v) >= 0;
  const push = (l, v) => { l[l.length] = v; }; // l: a list() (no prototype: no inherited setter)
  const quote = (s) => JSONStringify(s); // a string: JSON reads no toJSON from a primitive

  /* ---- bytes ----
   * UTF-8 and base64 come from internal/text (the engine's one set of codecs), except decoding the
   * host's base64: bodies up to CHIDORI_HTTP_MAX_BYTES cross here, and this strict decoder, four
   * characters at a time, is about twice as fast as the general, lenient one. */
  const text = require("internal/text");
  const utf8Encode = (s) => text.utf8Encode(s);
  const utf8Decode = (bytes) => new text.TextDecoder().decode(bytes); // the WHATWG decode: a BOM is dropped
  const bytesToBase64 = (bytes) => text.bytesToBase64(bytes);

  const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const B64_VALUE = TypedArrayFill(new Int32Array(65536), -1); // indexed by char code: -1 for anything else
  for (let i = 0; i < 64; i++) B64_VALUE[StringCharCodeAt(B64, i)] = i;

  // The host's base64 (always well-formed; checked anyway).
  function base64ToBytes(s) {
    const at = text.codeUnitReader();
    let n = s.length;
    if (n % 4) throw new TypeErrorCtor("invalid base64 from the host");
    let pad = 0;
    while (pad < 2 && n > 0 && at(s, n - 1) === 61) { n--; pad++; }
    const out = new Uint8ArrayCtor(((n + pad) / 4) * 3 - pad);
    const full = n - (n % 4);
    let o = 0, i = 0;
    for (; i < full; i += 4) {
      const v = (B64_VALUE[at(s, i)] << 18) | (B64_VALUE[at(s, i + 1)] << 12) |
        (B64_VALUE[at(s, i + 2)] << 6) | B64_VALUE[at(s, i + 3)];
      if (v < 0) throw new TypeErrorCtor("invalid base64 from the host");
      out[o] = v >> 16; out[o + 1] = v >> 8; out[o + 2] = v;
      o += 3;
    }
    if (i < n) { // 2 or 3 characters before the padding
      let v = 0;
      for (let k = 0; k < 4; k++) v = (v << 6) | (i + k < n ? B64_VALUE[at(s, i + k)] : 0);
      if (v < 0 || n - i < 2) throw new TypeErrorCtor("invalid base64 from the host");
      out[o++] = v >> 16;
      if (n - i === 3) out[o++] = v >> 8;
    }
    return out;
  }

  /* ---- URLs ----
   * SWAP-ish: the URL class (node:url) normalizes when it is available; until then a URL is taken
   * as given (trimmed, spaces and non-ASCII percent-encoded) and the host validates it. */
  let urlClass;
  function URLClass() {
    if (urlClass === undefined) {
      try {
        const U = require("url").URL;
        urlClass = typeof U === "function" ? U : null;
      } catch (_) {
        urlClass = null;
      }
    }
    return urlClass;
  }

  // True when s is an http(s) URL already in the form the URL parser serializes it to, so it can be
  // taken as it is without loading node:url: a lower-case scheme and host (letters, digits, '-' and
  // '.', no xn-- label; a host whose last label is a number must be a canonical dotted quad), a
  // port that is not the default one and has no leading zero, a path that starts with '/' and has no
  // dot segment, and path and query characters the parser would not encode. Anything else goes
  // through the URL class.
  function canonicalHttpUrl(s) {
    if (StringStartsWith(s, "data:")) return canonicalDataUrl(s);
    let i;
    if (StringStartsWith(s, "http://")) i = 7;
    else if (StringStartsWith(s, "https://")) i = 8;
    else return false;
    const n = s.length, hostStart = i;
    let labelStart = i, lastLabelNumeric = false, labels = 0, dots = 0;
    for (; i < n; i++) {
      const c = StringCharCodeAt(s, i);
      if (c === 46) { // '.'
        if (i === labelStart) return false;
        labels++; dots++; labelStart = i + 1;
        continue;
      }
      if (c === 58 || c === 47 || c === 63) break; // ':' '/' '?'
      const digit = c >= 48 && c <= 57;
      if (!(digit || (c >= 97 && c <= 122) || c === 45)) return false;
      if (i === labelStart) lastLabelNumeric = digit;
      else if (!digit) lastLabelNumeric = false;
      if (i === labelStart + 3 && c === 45 && StringSlice(s, labelStart, i + 1) === "xn--") return false;
    }
    if (i === hostStart || i === labelStart) return false; // empty host or a trailing dot
    labels++;
    if (lastLabelNumeric) {
      // must be a.b.c.d, each 0-255 without a leading zero
      if (labels !== 4 || dots !== 3) return false;
      let part = 0, len = 0;
      for (let k = hostStart; k <= i; k++) {
        const c = k < i ? StringCharCodeAt(s, k) : 46;
        if (c === 46) {
          if (len === 0 || part > 255) return false;
          part = 0; len = 0;
          continue;
        }
        if (c < 48 || c > 57 || (len === 1 && part === 0)) return false;
        part = part * 10 + (c - 48); len++;
      }
    }
    if (i < n && StringCharCodeAt(s, i) === 58) { // port
      const start = ++i;
      let port = 0;
      for (; i < n; i++) {
        const c = StringCharCodeAt(s, i);
        if (c < 48 || c > 57) break;
        port = port * 10 + (c - 48);
        if (port > 65535) return false;
      }
      if (i === start || StringCharCodeAt(s, start) === 48) return false;
      if (port === (hostStart === 7 ? 80 : 443)) return false;
    }
    if (i >= n || StringCharCodeAt(s, i) !== 47) return false; // the path must be there, from '/'
    let inQuery = false;
    for (; i < n; i++) {
      const c = StringCharCodeAt(s, i);
      if (c <= 32 || c >= 127 || c === 34 || c === 35 || c === 60 || c === 62 || c === 92 || c === 96 || c === 39)
        return false; // controls, space, '"', '#', '<', '>', '\\', '`', "'"
      if (c === 63) { inQuery = true; continue; }
      if (!inQuery) {
        if (c === 123 || c === 125 || c === 124 || c === 94 || c === 91 || c === 93) return false; // {}|^[]
        if (c === 46 && StringCharCodeAt(s, i - 1) === 47) return false; // a segment that starts with '.'
        if (c === 37) return false; // a %2e segment, or any percent escape: let the parser decide
      }
    }
    return true;
  }

  // A data: URL the URL parser would serialize as it is: printable ASCII without space, and none of
  // the characters the parser encodes or treats specially in a path or query.
  function canonicalDataUrl(s) {
    for (let i = 5; i < s.length; i++) {
      const c = StringCharCodeAt(s, i);
      if (c <= 32 || c >= 127 || c === 34 || c === 35 || c === 39 || c === 60 || c === 62 || c === 92 || c === 96 ||
          c === 123 || c === 125) return false;
    }
    return true;
  }

  function parseUrl(input, what) {
    let s;
    if (input !== null && typeof input === "object" && typeof input.href === "string") s = input.href;
    else s = StringCtor(input);
    if (canonicalHttpUrl(s)) return s;
    const U = URLClass();
    if (U) {
      let u;
      try {
        u = new U(s);
      } catch (e) {
        throw new TypeErrorCtor(what + ": invalid URL " + quote(s) + " (an absolute URL is required)");
      }
      if (u.username || u.password) throw new TypeErrorCtor(what + ": a URL with credentials cannot be fetched: " + quote(s));
      return u.href;
    }
    s = s.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, "").replace(/[\t\n\r]/g, "");
    if (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(s)) throw new TypeError(what + ": invalid URL " + JSON.stringify(s) + " (an absolute URL is required)");
    if (/^https?:\/\/[^/?#]*@/i.test(s)) throw new TypeError(what + ": a URL with credentials cannot be fetched: " + JSON.stringify(s));
    s = s.replace(/[^\u0021-\u007e]+/g, (m) => {
      try { return encodeURIComponent(m); } catch (_) { return encodeURIComponent(m.replace(/[\ud800-\udfff]/g, "\ufffd")); }
    });
    s = s.replace(/^([A-Za-z][A-Za-z0-9+.-]*):/, (m) => m.toLowerCase());
    s = s.replace(/^(https?:\/\/)([^/?#]*)/, (m, a, b) => a + b.toLowerCase());
    if (/^https?:\/\/[^/?#]*$/.test(s)) s += "/";
    return s;
  }

  /* ---- Headers ---- */

  const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

  function checkName(n) {
    n = StringCtor(n);
    if (!RegExpTest(TOKEN, n)) throw new TypeErrorCtor("Headers: invalid header name " + quote(n));
    return n;
  }

  const isHttpSpace = (c) => c === 9 || c === 10 || c === 13 || c === 32;
  function checkValue(v, n) {
    v = StringCtor(v);
    let a = 0, b = v.length;
    while (a < b && isHttpSpace(StringCharCodeAt(v, a))) a++;
    while (b > a && isHttpSpace(StringCharCodeAt(v, b - 1))) b--;
    if (a > 0 || b < v.length) v = StringSlice(v, a, b);
    for (let i = 0; i < v.length; i++) {
      const c = StringCharCodeAt(v, i);
      if (c === 0 || c === 10 || c === 13) throw new TypeErrorCtor("Headers: invalid value for header " + quote(n) + " (NUL, CR or LF)");
      if (c > 255) throw new TypeErrorCtor("Headers: the value of header " + quote(n) + " has a character beyond U+00FF at index " + i);
    }
    return v;
  }

  const pair = (a, b) => { const p = list(); p[0] = a; p[1] = b; return p; };

  let trustedHeaders = null; // set below: builds Headers from the host's pairs without re-checking

  class Headers {
    #list = list(); // pair(lowerName, value), in insertion order (lists without a prototype)
    #immutable = false;

    constructor(init) {
      if (init === undefined || init === null) return;
      if (typeof init !== "object" && typeof init !== "function") throw new TypeErrorCtor("Headers: init must be an object, an array of pairs or Headers");
      if (#list in init) {
        const from = init.#list;
        for (let i = 0; i < from.length; i++) push(this.#list, pair(from[i][0], from[i][1]));
        return;
      }
      if (typeof init[Symbol.iterator] === "function") {
        // a guest iterable: iterated as the guest made it (a plain array of pairs by index)
        const add = (p) => {
          if (p === null || typeof p !== "object" || typeof p[Symbol.iterator] !== "function") throw new TypeErrorCtor("Headers: each header must be a [name, value] pair");
          const items = list();
          if (ArrayIsArray(p)) { for (let i = 0; i < p.length; i++) push(items, p[i]); }
          else for (const x of p) push(items, x);
          if (items.length !== 2) throw new TypeErrorCtor("Headers: each header must be a [name, value] pair");
          this.append(items[0], items[1]);
        };
        if (ArrayIsArray(init)) { for (let i = 0; i < init.length; i++) add(init[i]); }
        else for (const p of init) add(p);
        return;
      }
      const keys = ReflectOwnKeys(init);
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i];
        if (typeof k !== "string") continue;
        const d = GetOwnPropertyDescriptor(init, k);
        if (d && d.enumerable) this.append(k, init[k]);
      }
    }

    #mutable() {
      if (this.#immutable) throw new TypeErrorCtor("Headers: these headers are immutable");
    }

    append(n, v) {
      n = checkName(n);
      v = checkValue(v, n);
      this.#mutable();
      push(this.#list, pair(StringToLowerCase(n), v));
    }

    // a copy of the list without the entries of `lower`, except the one at index `keep`
    #without(lower, keep) {
      const from = this.#list, out = list();
      for (let j = 0; j < from.length; j++) if (j === keep || from[j][0] !== lower) push(out, from[j]);
      this.#list = out;
    }

    delete(n) {
      n = StringToLowerCase(checkName(n));
      this.#mutable();
      this.#without(n, -1);
    }

    get(n) {
      return joinedValue(this.#list, StringToLowerCase(checkName(n)));
    }

    getSetCookie() {
      const l = this.#list, vs = [];
      for (let i = 0; i < l.length; i++) if (l[i][0] === "set-cookie") P.defineValue(vs, vs.length, l[i][1]);
      return vs;
    }

    has(n) {
      n = StringToLowerCase(checkName(n));
      const l = this.#list;
      for (let i = 0; i < l.length; i++) if (l[i][0] === n) return true;
      return false;
    }

    set(n, v) {
      n = checkName(n);
      v = checkValue(v, n);
      this.#mutable();
      const lower = StringToLowerCase(n), l = this.#list;
      let i = 0;
      while (i < l.length && l[i][0] !== lower) i++;
      if (i === l.length) { push(l, pair(lower, v)); return; }
      l[i] = pair(lower, v);
      this.#without(lower, i);
    }

    // Sort and combine: names in code-unit order, values of one name joined by ", ", except
    // set-cookie whose values stay separate.
    #sorted() {
      const l = this.#list, names = list();
      for (let i = 0; i < l.length; i++) if (!has(names, l[i][0])) push(names, l[i][0]);
      ArraySort(names, (a, b) => (a < b ? -1 : a > b ? 1 : 0));
      const out = list();
      for (let k = 0; k < names.length; k++) {
        const n = names[k];
        if (n === "set-cookie") { for (let i = 0; i < l.length; i++) if (l[i][0] === n) push(out, pair(n, l[i][1])); }
        else push(out, pair(n, joinedValue(l, n)));
      }
      return out;
    }

    forEach(callback, thisArg) {
      if (typeof callback !== "function") throw new TypeErrorCtor("Headers.forEach: the callback must be a function");
      const l = this.#sorted();
      for (let i = 0; i < l.length; i++) ReflectApply(callback, thisArg, [l[i][1], l[i][0], this]);
    }

    *entries() { const l = this.#sorted(); for (let i = 0; i < l.length; i++) yield [l[i][0], l[i][1]]; }
    *keys() { const l = this.#sorted(); for (let i = 0; i < l.length; i++) yield l[i][0]; }
    *values() { const l = this.#sorted(); for (let i = 0; i < l.length; i++) yield l[i][1]; }
    [Symbol.iterator]() { return this.entries(); }
    get [Symbol.toStringTag]() { return "Headers"; }

    static {
      trustedHeaders = (pairs, immutable) => {
        const h = new Headers();
        for (let i = 0; i < pairs.length; i++) push(h.#list, pair(StringToLowerCase(StringCtor(pairs[i][0])), StringCtor(pairs[i][1])));
        h.#immutable = immutable;
        return h;
      };
      listOf = (h) => h.#list;
    }
  }
  var listOf; // set by Headers' static block: the raw [lowerName, value] list

  // The values of one (lower-case) name joined by ", ", or null.
  function joinedValue(l, n) {
    let out = null;
    for (let i = 0; i < l.length; i++) if (l[i][0] === n) out = out === null ? l[i][1] : out + ", " + l[i][1];
    return out;
  }

  /* ---- bodies ---- */

  function isArrayBuffer(v) {
    return v instanceof ArrayBuffer || ObjectToString(v) === "[object ArrayBuffer]" ||
      ObjectToString(v) === "[object SharedArrayBuffer]";
  }

  function isURLSearchParams(v) {
    try {
      const U = require("url").URLSearchParams;
      if (typeof U === "function" && v instanceof U) return true;
    } catch (_) { /* node:url not there yet */ }
    return ObjectToString(v) === "[object URLSearchParams]";
  }
  const bodyOf = (bytes, source, type) => ({ __proto__: null, bytes, source, type });

  const webstreams = () => require("internal/webstreams");
  const blobs = () => require("internal/blob");
  // A request body given as a stream is read whole before the request is sent (the host sends
  // bodies whole); the host's own cap on request bodies is CHIDORI_HTTP_MAX_REQUEST_BYTES <= 32 MiB.
  const STREAM_BODY_LIMIT = 32 * 1024 * 1024;

  // The body of an init: {bytes, source, type} or null. `source` is a ReadableStream given as the
  // body (its bytes are read when the body is consumed).
  function extractBody(body, what) {
    if (body === undefined || body === null) return null;
    if (typeof body === "string") return bodyOf(utf8Encode(body), null, "text/plain;charset=UTF-8");
    if (ArrayBufferIsView(body)) return bodyOf(TypedArraySlice(new Uint8ArrayCtor(body.buffer, body.byteOffset, body.byteLength)), null, null);
    if (isArrayBuffer(body)) return bodyOf(TypedArraySlice(new Uint8ArrayCtor(body)), null, null);
    const blob = blobs().bytesOf(body);
    if (blob !== null) {
      const type = blobs().typeOf(body);
      return bodyOf(TypedArraySlice(blob), null, type === "" ? null : type);
    }
    const fd = require("internal/formdata");
    if (fd.isFormData(body)) {
      const m = fd.encodeMultipart(body);
      return bodyOf(m.bytes, null, m.type);
    }
    if (isURLSearchParams(body)) return bodyOf(utf8Encode(StringCtor(body)), null, "application/x-www-form-urlencoded;charset=UTF-8");
    const ws = webstreams();
    if (ws.isReadableStream(body)) {
      if (body.locked || ws.isDisturbed(body)) throw new TypeErrorCtor(what + ": the body stream is locked or was read already");
      return bodyOf(null, body, null);
    }
    if (typeof body === "object" && typeof body[Symbol.asyncIterator] === "function")
      return bodyOf(null, ws.web.ReadableStream.from(body), null);
    return bodyOf(utf8Encode(StringCtor(body)), null, "text/plain;charset=UTF-8");
  }

  function unusable(what) {
    return new TypeErrorCtor(what + ": the body has already been read");
  }

  // Body state shared by Request and Response: whole bytes, or a stream (`source`) read when the
  // body is consumed. `body` (the getter) is a ReadableStream over either; reading it uses the body.
  class BodyState {
    // fields are defined (own from the start): no setter on Object.prototype runs when they change
    bytes; source; taken; stream;
    constructor(bytes, source) {
      this.bytes = bytes; // Uint8Array or null
      this.source = source || null; // ReadableStream or null
      this.taken = false;
      this.stream = null;
    }
    get has() { return this.bytes !== null || this.source !== null; }
    get used() {
      if (this.taken) return true;
      const st = this.stream || this.source;
      return st !== null && webstreams().isDisturbed(st);
    }
    // The whole body, once (a promise: a stream body is read to its end).
    takeAll(what) {
      if (this.used || (this.stream !== null && this.stream.locked) || (this.source !== null && this.source.locked))
        return PromiseReject(unusable(what));
      this.taken = true;
      if (this.source !== null) return P.PromiseFrom(webstreams().bytesOfReadable(this.source, what, STREAM_BODY_LIMIT));
      return PromiseResolve(this.bytes || new Uint8ArrayCtor(0));
    }
    streamFor() {
      if (this.source !== null) return this.source;
      if (this.bytes === null) return null;
      if (!this.stream) this.stream = webstreams().readableOfBytes(this.bytes);
      return this.stream;
    }
    // Two states with the same content (clone): a stream body is teed.
    split() {
      if (this.source !== null) {
        const t = this.source.tee();
        this.source = t[0];
        return new BodyState(null, t[1]);
      }
      if (this.stream !== null) {
        const t = this.stream.tee();
        this.stream = null;
        this.source = t[0];
        const copy = new BodyState(null, t[1]);
        this.bytes = null;
        return copy;
      }
      return new BodyState(this.bytes === null ? null : TypedArraySlice(this.bytes));
    }
  }

  // kind: text, json, arrayBuffer, bytes, a Blob of `blobType`, or formData (`blobType` is then the
  // Content-Type that says how to parse it).
  function readAs(state, kind, what, blobType) {
    return PromiseThen(state.takeAll(what), (bytes) => {
      switch (kind) {
        case "text": return utf8Decode(bytes);
        case "json": return JSONParse(utf8Decode(bytes));
        case "arrayBuffer": return TypedArraySlice(bytes).buffer;
        case "bytes": return TypedArraySlice(bytes);
        case "blob": return new (blobs().Blob)([bytes], { type: blobType || "" });
        case "formData": return require("internal/formdata").parseFormData(bytes, blobType, what);
        default: throw new TypeErrorCtor(what + "." + kind + "() is not available in chidori");
      }
    });
  }

  /* ---- Request ---- */

  const NORMALIZED_METHODS = ["DELETE", "GET", "HEAD", "OPTIONS", "POST", "PUT"];
  const REDIRECT_MODES = ["follow", "error", "manual"];

  function normalizeMethod(m) {
    m = StringCtor(m);
    if (!RegExpTest(TOKEN, m)) throw new TypeErrorCtor("Request: " + quote(m) + " is not a valid HTTP method");
    const upper = StringToUpperCase(m);
    if (upper === "CONNECT" || upper === "TRACE" || upper === "TRACK") throw new TypeErrorCtor("Request: the method " + upper + " is forbidden");
    return has(NORMALIZED_METHODS, upper) ? upper : m;
  }

  let requestState = null; // (Request) -> {body, signal}

  class Request {
    #method; #url; #headers; #redirect; #signal; #body;

    constructor(input, init) {
      if (arguments.length === 0) throw new TypeErrorCtor("Request: a URL or Request is required");
      if (init === undefined || init === null) init = { __proto__: null };
      else if (typeof init !== "object") throw new TypeErrorCtor("Request: init must be an object");
      let fromRequest = null;
      if (input !== null && typeof input === "object" && #url in input) {
        fromRequest = input;
        this.#url = input.#url;
        this.#method = input.#method;
        this.#headers = new Headers(input.#headers);
        this.#redirect = input.#redirect;
        this.#signal = input.#signal;
        this.#body = null;
      } else {
        this.#url = parseUrl(input, "Request");
        this.#method = "GET";
        this.#headers = new Headers();
        this.#redirect = "follow";
        this.#signal = null;
        this.#body = null;
      }
      if (init.method !== undefined) this.#method = normalizeMethod(init.method);
      if (init.headers !== undefined) this.#headers = new Headers(init.headers);
      if (init.redirect !== undefined) {
        const r = StringCtor(init.redirect);
        if (!has(REDIRECT_MODES, r)) throw new TypeErrorCtor("Request: redirect must be \"follow\", \"error\" or \"manual\", not " + quote(r));
        this.#redirect = r;
      }
      if (init.signal !== undefined) {
        const s = init.signal;
        if (s !== null && (typeof s !== "object" || typeof s.aborted !== "boolean")) throw new TypeErrorCtor("Request: signal must be an AbortSignal");
        this.#signal = s;
      }
      const hasInitBody = init.body !== undefined && init.body !== null;
      if (hasInitBody || (fromRequest && fromRequest.#body.has)) {
        if (this.#method === "GET" || this.#method === "HEAD") throw new TypeErrorCtor("Request: a " + this.#method + " request cannot have a body");
      }
      if (hasInitBody) {
        const b = extractBody(init.body, "Request");
        this.#body = new BodyState(b.bytes, b.source);
        if (b.type !== null && !this.#headers.has("content-type")) this.#headers.append("content-type", b.type);
      } else if (fromRequest && fromRequest.#body.has) {
        // the source's body moves here
        const from = fromRequest.#body;
        if (from.used) throw unusable("Request");
        this.#body = new BodyState(from.bytes, from.source);
        this.#body.stream = from.stream;
        from.taken = true;
      } else {
        this.#body = new BodyState(null);
      }
    }

    get method() { return this.#method; }
    get url() { return this.#url; }
    get headers() { return this.#headers; }
    get redirect() { return this.#redirect; }
    get signal() { return this.#signal; }
    get body() { return this.#body.streamFor(); }
    get bodyUsed() { return this.#body.used; }
    get destination() { return ""; }
    get referrer() { return "about:client"; }
    get referrerPolicy() { return ""; }
    get mode() { return "cors"; }
    get credentials() { return "same-origin"; }
    get cache() { return "default"; }
    get integrity() { return ""; }
    get keepalive() { return false; }
    get duplex() { return "half"; }
    get [Symbol.toStringTag]() { return "Request"; }

    clone() {
      if (this.#body.used) throw unusable("Request.clone");
      const r = new Request(this, { __proto__: null });
      // new Request(this) moved the body; give both a copy
      if (r.#body.has) {
        this.#body = r.#body;
        r.#body = this.#body.split();
      }
      return r;
    }

    text() { return readAs(this.#body, "text", "Request"); }
    json() { return readAs(this.#body, "json", "Request"); }
    arrayBuffer() { return readAs(this.#body, "arrayBuffer", "Request"); }
    bytes() { return readAs(this.#body, "bytes", "Request"); }
    blob() { return readAs(this.#body, "blob", "Request", this.#headers.get("content-type")); }
    formData() { return readAs(this.#body, "formData", "Request", joinedValue(listOf(this.#headers), "content-type")); }

    static {
      // what fetch sends, read from the private state (never through the guest-writable getters)
      requestState = (r) => ({ __proto__: null, body: r.#body, signal: r.#signal, method: r.#method, url: r.#url,
        headers: r.#headers, redirect: r.#redirect });
    }
  }

  /* ---- Response ---- */

  const NULL_BODY_STATUS = [101, 103, 204, 205, 304];
  const REDIRECT_STATUS = [301, 302, 303, 307, 308];
  let makeResponse = null;

  class Response {
    #status = 200; #statusText = ""; #headers; #body; #type = "default"; #url = ""; #redirected = false;

    constructor(body, init) {
      if (body === undefined) body = null;
      if (init === undefined || init === null) init = { __proto__: null };
      else if (typeof init !== "object") throw new TypeErrorCtor("Response: init must be an object");
      if (init.status !== undefined) {
        const s = NumberCtor(init.status);
        if (!NumberIsInteger(s) || s < 200 || s > 599) throw new RangeErrorCtor("Response: status must be an integer from 200 to 599, not " + StringCtor(init.status));
        this.#status = s;
      }
      if (init.statusText !== undefined) {
        const t = StringCtor(init.statusText);
        if (!RegExpTest(/^[\t\u0020-\u007e\u0080-\u00ff]*$/, t)) throw new TypeErrorCtor("Response: invalid statusText");
        this.#statusText = t;
      }
      this.#headers = new Headers(init.headers);
      const b = extractBody(body, "Response");
      if (b !== null && has(NULL_BODY_STATUS, this.#status)) throw new TypeErrorCtor("Response: a response with status " + this.#status + " cannot have a body");
      this.#body = b === null ? new BodyState(null) : new BodyState(b.bytes, b.source);
      if (b !== null && b.type !== null && !this.#headers.has("content-type")) this.#headers.append("content-type", b.type);
    }

    get status() { return this.#status; }
    get ok() { return this.#status >= 200 && this.#status <= 299; }
    get statusText() { return this.#statusText; }
    get headers() { return this.#headers; }
    get type() { return this.#type; }
    get url() { return this.#url; }
    get redirected() { return this.#redirected; }
    get body() { return this.#body.streamFor(); }
    get bodyUsed() { return this.#body.used; }
    get [Symbol.toStringTag]() { return "Response"; }

    clone() {
      if (this.#body.used) throw unusable("Response.clone");
      const r = makeResponse(this.#status, this.#statusText, listOf(this.#headers), null,
        this.#type, this.#url, this.#redirected, false);
      r.#body = this.#body.split();
      return r;
    }

    text() { return readAs(this.#body, "text", "Response"); }
    json() { return readAs(this.#body, "json", "Response"); }
    arrayBuffer() { return readAs(this.#body, "arrayBuffer", "Response"); }
    bytes() { return readAs(this.#body, "bytes", "Response"); }
    blob() { return readAs(this.#body, "blob", "Response", this.#headers.get("content-type")); }
    formData() { return readAs(this.#body, "formData", "Response", joinedValue(listOf(this.#headers), "content-type")); }

    static error() {
      const r = makeResponse(0, "", list(), null, "error", "", false, true);
      return r;
    }

    static redirect(url, status) {
      const href = parseUrl(url, "Response.redirect");
      const s = status === undefined ? 302 : NumberCtor(status);
      if (!has(REDIRECT_STATUS, s)) throw new RangeErrorCtor("Response.redirect: status must be 301, 302, 303, 307 or 308");
      const l = list();
      l[0] = pair("location", href);
      return makeResponse(s, "", l, null, "default", "", false, true);
    }

    static json(data, init) {
      const body = JSONStringify(data);
      if (body === undefined) throw new TypeErrorCtor("Response.json: the data is not JSON-serializable");
      const headers = new Headers(init === undefined || init === null ? undefined : init.headers);
      if (!headers.has("content-type")) headers.set("content-type", "application/json");
      const o = init === undefined || init === null ? { __proto__: null } : init;
      return new Response(body, { __proto__: null, status: o.status, statusText: o.statusText, headers });
    }

    static {
      makeResponse = (status, statusText, headerPairs, bytes, type, url, redirected, immutable) => {
        const r = new Response(null);
        r.#status = status;
        r.#statusText = statusText;
        r.#headers = trustedHeaders(headerPairs, immutable);
        r.#body = new BodyState(bytes);
        r.#type = type;
        r.#url = url;
        r.#redirected = redirected;
        return r;
      };
    }
  }

  /* ---- the host call ---- */

  // Headers chidori sets itself (the host refuses them): dropped from what a guest asks, as a
  // browser drops forbidden request headers.
  const RESERVED = ["host", "content-length", "transfer-encoding", "connection", "keep-alive", "upgrade", "expect", "te", "trailer", "proxy-connection"];
  function reservedHeader(n) {
    n = StringToLowerCase(n);
    return has(RESERVED, n) || StringStartsWith(n, "proxy-");
  }

  function abortError(signal) {
    if (signal && signal.reason !== undefined) return signal.reason;
    const e = new P.ErrorCtor("This operation was aborted");
    e.name = "AbortError";
    e.code = 20;
    return e;
  }

  // One `http` op. pairs: [[name, value], …]; body: Uint8Array or null. Resolves with the host's
  // result, rejects with the host's error.
  function perform(method, url, pairs, body, redirect, timeoutMs) {
    const headers = list();
    for (let i = 0; i < pairs.length; i++) if (!reservedHeader(pairs[i][0])) push(headers, pair(pairs[i][0], pairs[i][1]));
    const args = { __proto__: null, 
      method,
      url,
      headers,
      body: body === null ? null : bytesToBase64(body),
      redirect,
    };
    if (timeoutMs !== undefined) args.timeout_ms = timeoutMs;
    return natives.effect("http", args);
  }

  function fetch(input, init) {
    return PromiseOwn(new PromiseCtor((resolve, reject) => {
      let req;
      try {
        req = new Request(input, init);
      } catch (e) {
        reject(e);
        return;
      }
      const st = requestState(req);
      const signal = st.signal, method = st.method, url = st.url;
      if (signal && signal.aborted) {
        reject(abortError(signal));
        return;
      }
      if (StringStartsWith(url, "data:")) { // answered here, as the Fetch standard does: no network
        const d = require("internal/dataurl").processDataUrl(url);
        if (d === null) {
          const err = new TypeErrorCtor("fetch failed");
          err.cause = new TypeErrorCtor("invalid data: URL " + quote(url.length > 80 ? StringSlice(url, 0, 80) + "…" : url));
          reject(err);
          return;
        }
        const l = list();
        l[0] = pair("content-type", d.mime);
        resolve(makeResponse(200, "OK", l, method === "HEAD" ? null : d.bytes, "basic", url, false, true));
        return;
      }
      const bodyReady = st.body.has ? st.body.takeAll("fetch") : PromiseResolve(null);
      const sent = PromiseThen(bodyReady, (body) => {
        if (signal && signal.aborted) throw abortError(signal);
        return PromiseThen(perform(method, url, listOf(st.headers), body, st.redirect), null, (e) => {
          const err = new TypeErrorCtor(natives.messageOfError(e));
          err.cause = e;
          throw err;
        });
      });
      PromiseThen(sent, (r) => {
        if (signal && signal.aborted) { reject(abortError(signal)); return; }
        const nullBody = method === "HEAD" || has(NULL_BODY_STATUS, r.status);
        const bytes = nullBody ? null : base64ToBytes(r.body);
        resolve(makeResponse(r.status, r.status_text, r.headers, bytes, "basic", r.url, r.redirected, true));
      }, reject);
    }));
  }

  const internals = ObjectFreeze({ __proto__: null, bytesToBase64, base64ToBytes, perform, reservedHeader, parseUrl, abortError });

  const exports = { fetch, Headers, Request, Response };
  ObjectDefineProperty(exports, "internals", { __proto__: null, value: internals, enumerable: false });
  return ObjectFreeze(exports);
})
