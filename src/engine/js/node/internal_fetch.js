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
 */
(function (require, natives, name) {
  "use strict";

  /* ---- bytes ----
   * UTF-8 and base64 come from internal/text (the engine's one set of codecs), except decoding the
   * host's base64: bodies up to CHIDORI_HTTP_MAX_BYTES cross here, and this strict decoder, four
   * characters at a time, is about twice as fast as the general, lenient one. */
  const text = require("internal/text");
  const utf8Encode = (s) => text.utf8Encode(s);
  const utf8Decode = (bytes) => new text.TextDecoder().decode(bytes); // the WHATWG decode: a BOM is dropped
  const bytesToBase64 = (bytes) => text.bytesToBase64(bytes);

  const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const B64_VALUE = new Int32Array(65536).fill(-1); // indexed by char code: -1 for anything else
  for (let i = 0; i < 64; i++) B64_VALUE[B64.charCodeAt(i)] = i;

  // The host's base64 (always well-formed; checked anyway).
  function base64ToBytes(s) {
    let n = s.length;
    if (n % 4) throw new TypeError("invalid base64 from the host");
    let pad = 0;
    while (pad < 2 && n > 0 && s.charCodeAt(n - 1) === 61) { n--; pad++; }
    const out = new Uint8Array(((n + pad) / 4) * 3 - pad);
    const full = n - (n % 4);
    let o = 0, i = 0;
    for (; i < full; i += 4) {
      const v = (B64_VALUE[s.charCodeAt(i)] << 18) | (B64_VALUE[s.charCodeAt(i + 1)] << 12) |
        (B64_VALUE[s.charCodeAt(i + 2)] << 6) | B64_VALUE[s.charCodeAt(i + 3)];
      if (v < 0) throw new TypeError("invalid base64 from the host");
      out[o] = v >> 16; out[o + 1] = v >> 8; out[o + 2] = v;
      o += 3;
    }
    if (i < n) { // 2 or 3 characters before the padding
      let v = 0;
      for (let k = 0; k < 4; k++) v = (v << 6) | (i + k < n ? B64_VALUE[s.charCodeAt(i + k)] : 0);
      if (v < 0 || n - i < 2) throw new TypeError("invalid base64 from the host");
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

  function parseUrl(input, what) {
    let s;
    if (input !== null && typeof input === "object" && typeof input.href === "string") s = input.href;
    else s = String(input);
    const U = URLClass();
    if (U) {
      let u;
      try {
        u = new U(s);
      } catch (e) {
        throw new TypeError(what + ": invalid URL " + JSON.stringify(s) + " (an absolute URL is required)");
      }
      if (u.username || u.password) throw new TypeError(what + ": a URL with credentials cannot be fetched: " + JSON.stringify(s));
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
  const WS_EDGES = /^[\t\n\r ]+|[\t\n\r ]+$/g;

  function checkName(n) {
    n = String(n);
    if (!TOKEN.test(n)) throw new TypeError("Headers: invalid header name " + JSON.stringify(n));
    return n;
  }

  function checkValue(v, n) {
    v = String(v).replace(WS_EDGES, "");
    for (let i = 0; i < v.length; i++) {
      const c = v.charCodeAt(i);
      if (c === 0 || c === 10 || c === 13) throw new TypeError("Headers: invalid value for header " + JSON.stringify(n) + " (NUL, CR or LF)");
      if (c > 255) throw new TypeError("Headers: the value of header " + JSON.stringify(n) + " has a character beyond U+00FF at index " + i);
    }
    return v;
  }

  let trustedHeaders = null; // set below: builds Headers from the host's pairs without re-checking

  class Headers {
    #list = []; // [lowerName, value], in insertion order
    #immutable = false;

    constructor(init) {
      if (init === undefined || init === null) return;
      if (typeof init !== "object" && typeof init !== "function") throw new TypeError("Headers: init must be an object, an array of pairs or Headers");
      if (#list in init) {
        for (const [n, v] of init.#list) this.#list.push([n, v]);
        return;
      }
      if (typeof init[Symbol.iterator] === "function") {
        for (const pair of init) {
          if (pair === null || typeof pair !== "object" || typeof pair[Symbol.iterator] !== "function") throw new TypeError("Headers: each header must be a [name, value] pair");
          const p = Array.from(pair);
          if (p.length !== 2) throw new TypeError("Headers: each header must be a [name, value] pair");
          this.append(p[0], p[1]);
        }
        return;
      }
      for (const k of Reflect.ownKeys(init)) {
        if (typeof k !== "string") continue;
        const d = Reflect.getOwnPropertyDescriptor(init, k);
        if (d && d.enumerable) this.append(k, init[k]);
      }
    }

    #mutable() {
      if (this.#immutable) throw new TypeError("Headers: these headers are immutable");
    }

    append(n, v) {
      n = checkName(n);
      v = checkValue(v, n);
      this.#mutable();
      this.#list.push([n.toLowerCase(), v]);
    }

    delete(n) {
      n = checkName(n).toLowerCase();
      this.#mutable();
      this.#list = this.#list.filter((e) => e[0] !== n);
    }

    get(n) {
      n = checkName(n).toLowerCase();
      const vs = [];
      for (const e of this.#list) if (e[0] === n) vs.push(e[1]);
      return vs.length ? vs.join(", ") : null;
    }

    getSetCookie() {
      const vs = [];
      for (const e of this.#list) if (e[0] === "set-cookie") vs.push(e[1]);
      return vs;
    }

    has(n) {
      n = checkName(n).toLowerCase();
      return this.#list.some((e) => e[0] === n);
    }

    set(n, v) {
      n = checkName(n);
      v = checkValue(v, n);
      this.#mutable();
      const lower = n.toLowerCase();
      const i = this.#list.findIndex((e) => e[0] === lower);
      if (i < 0) { this.#list.push([lower, v]); return; }
      this.#list[i] = [lower, v];
      this.#list = this.#list.filter((e, j) => j <= i || e[0] !== lower);
    }

    // Sort and combine: names in code-unit order, values of one name joined by ", ", except
    // set-cookie whose values stay separate.
    #sorted() {
      const names = [];
      for (const e of this.#list) if (!names.includes(e[0])) names.push(e[0]);
      names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      const out = [];
      for (const n of names) {
        if (n === "set-cookie") { for (const e of this.#list) if (e[0] === n) out.push([n, e[1]]); }
        else out.push([n, this.get(n)]);
      }
      return out;
    }

    forEach(callback, thisArg) {
      if (typeof callback !== "function") throw new TypeError("Headers.forEach: the callback must be a function");
      const list = this.#sorted();
      for (let i = 0; i < list.length; i++) callback.call(thisArg, list[i][1], list[i][0], this);
    }

    *entries() { const l = this.#sorted(); for (let i = 0; i < l.length; i++) yield [l[i][0], l[i][1]]; }
    *keys() { const l = this.#sorted(); for (let i = 0; i < l.length; i++) yield l[i][0]; }
    *values() { const l = this.#sorted(); for (let i = 0; i < l.length; i++) yield l[i][1]; }
    [Symbol.iterator]() { return this.entries(); }
    get [Symbol.toStringTag]() { return "Headers"; }

    static {
      trustedHeaders = (pairs, immutable) => {
        const h = new Headers();
        for (const p of pairs) h.#list.push([String(p[0]).toLowerCase(), String(p[1])]);
        h.#immutable = immutable;
        return h;
      };
      listOf = (h) => h.#list;
    }
  }
  var listOf; // set by Headers' static block: the raw [lowerName, value] list

  /* ---- bodies ---- */

  function isArrayBuffer(v) {
    return v instanceof ArrayBuffer || Object.prototype.toString.call(v) === "[object ArrayBuffer]" ||
      Object.prototype.toString.call(v) === "[object SharedArrayBuffer]";
  }

  function isURLSearchParams(v) {
    try {
      const U = require("url").URLSearchParams;
      if (typeof U === "function" && v instanceof U) return true;
    } catch (_) { /* node:url not there yet */ }
    return Object.prototype.toString.call(v) === "[object URLSearchParams]";
  }

  const webstreams = () => require("internal/webstreams");
  const blobs = () => require("internal/blob");
  // A request body given as a stream is read whole before the request is sent (the host sends
  // bodies whole); the host's own cap on request bodies is CHIDORI_HTTP_MAX_REQUEST_BYTES <= 32 MiB.
  const STREAM_BODY_LIMIT = 32 * 1024 * 1024;

  // The body of an init: {bytes, source, type} or null. `source` is a ReadableStream given as the
  // body (its bytes are read when the body is consumed).
  function extractBody(body, what) {
    if (body === undefined || body === null) return null;
    if (typeof body === "string") return { bytes: utf8Encode(body), source: null, type: "text/plain;charset=UTF-8" };
    if (ArrayBuffer.isView(body)) return { bytes: new Uint8Array(body.buffer, body.byteOffset, body.byteLength).slice(), source: null, type: null };
    if (isArrayBuffer(body)) return { bytes: new Uint8Array(body).slice(), source: null, type: null };
    if (isURLSearchParams(body)) return { bytes: utf8Encode(body.toString()), source: null, type: "application/x-www-form-urlencoded;charset=UTF-8" };
    const blob = blobs().bytesOf(body);
    if (blob !== null) return { bytes: blob.slice(), source: null, type: body.type === "" ? null : body.type };
    const fd = require("internal/formdata");
    if (fd.isFormData(body)) {
      const m = fd.encodeMultipart(body);
      return { bytes: m.bytes, source: null, type: m.type };
    }
    const ws = webstreams();
    if (ws.isReadableStream(body)) {
      if (body.locked || ws.isDisturbed(body)) throw new TypeError(what + ": the body stream is locked or was read already");
      return { bytes: null, source: body, type: null };
    }
    if (typeof body === "object" && typeof body[Symbol.asyncIterator] === "function")
      return { bytes: null, source: ws.web.ReadableStream.from(body), type: null };
    return { bytes: utf8Encode(String(body)), source: null, type: "text/plain;charset=UTF-8" };
  }

  function unusable(what) {
    return new TypeError(what + ": the body has already been read");
  }

  // Body state shared by Request and Response: whole bytes, or a stream (`source`) read when the
  // body is consumed. `body` (the getter) is a ReadableStream over either; reading it uses the body.
  class BodyState {
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
        return Promise.reject(unusable(what));
      this.taken = true;
      if (this.source !== null) return webstreams().bytesOfReadable(this.source, what, STREAM_BODY_LIMIT);
      return Promise.resolve(this.bytes || new Uint8Array(0));
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
        const [a, b] = this.source.tee();
        this.source = a;
        return new BodyState(null, b);
      }
      if (this.stream !== null) {
        const [a, b] = this.stream.tee();
        this.stream = null;
        this.source = a;
        const copy = new BodyState(null, b);
        this.bytes = null;
        return copy;
      }
      return new BodyState(this.bytes === null ? null : this.bytes.slice());
    }
  }

  // kind: text, json, arrayBuffer, bytes, or a Blob of `blobType`.
  function readAs(state, kind, what, blobType) {
    if (kind === "formData") return Promise.reject(new TypeError(what + ".formData() is not available in chidori; read the body with text() or arrayBuffer()"));
    return state.takeAll(what).then((bytes) => {
      switch (kind) {
        case "text": return utf8Decode(bytes);
        case "json": return JSON.parse(utf8Decode(bytes));
        case "arrayBuffer": return bytes.slice().buffer;
        case "bytes": return bytes.slice();
        case "blob": return new (blobs().Blob)([bytes], { type: blobType || "" });
        default: throw new TypeError(what + "." + kind + "() is not available in chidori");
      }
    });
  }

  /* ---- Request ---- */

  const NORMALIZED_METHODS = ["DELETE", "GET", "HEAD", "OPTIONS", "POST", "PUT"];
  const REDIRECT_MODES = ["follow", "error", "manual"];

  function normalizeMethod(m) {
    m = String(m);
    if (!TOKEN.test(m)) throw new TypeError("Request: " + JSON.stringify(m) + " is not a valid HTTP method");
    const upper = m.toUpperCase();
    if (upper === "CONNECT" || upper === "TRACE" || upper === "TRACK") throw new TypeError("Request: the method " + upper + " is forbidden");
    return NORMALIZED_METHODS.includes(upper) ? upper : m;
  }

  let requestState = null; // (Request) -> {body, signal}

  class Request {
    #method; #url; #headers; #redirect; #signal; #body;

    constructor(input, init) {
      if (arguments.length === 0) throw new TypeError("Request: a URL or Request is required");
      if (init === undefined || init === null) init = {};
      else if (typeof init !== "object") throw new TypeError("Request: init must be an object");
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
        const r = String(init.redirect);
        if (!REDIRECT_MODES.includes(r)) throw new TypeError("Request: redirect must be \"follow\", \"error\" or \"manual\", not " + JSON.stringify(r));
        this.#redirect = r;
      }
      if (init.signal !== undefined) {
        const s = init.signal;
        if (s !== null && (typeof s !== "object" || typeof s.aborted !== "boolean")) throw new TypeError("Request: signal must be an AbortSignal");
        this.#signal = s;
      }
      const hasInitBody = init.body !== undefined && init.body !== null;
      if (hasInitBody || (fromRequest && fromRequest.#body.has)) {
        if (this.#method === "GET" || this.#method === "HEAD") throw new TypeError("Request: a " + this.#method + " request cannot have a body");
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
      const r = new Request(this, {});
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
    formData() { return readAs(this.#body, "formData", "Request"); }

    static {
      requestState = (r) => ({ body: r.#body, signal: r.#signal });
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
      if (init === undefined || init === null) init = {};
      else if (typeof init !== "object") throw new TypeError("Response: init must be an object");
      if (init.status !== undefined) {
        const s = Number(init.status);
        if (!Number.isInteger(s) || s < 200 || s > 599) throw new RangeError("Response: status must be an integer from 200 to 599, not " + String(init.status));
        this.#status = s;
      }
      if (init.statusText !== undefined) {
        const t = String(init.statusText);
        if (!/^[\t\u0020-\u007e\u0080-\u00ff]*$/.test(t)) throw new TypeError("Response: invalid statusText");
        this.#statusText = t;
      }
      this.#headers = new Headers(init.headers);
      const b = extractBody(body, "Response");
      if (b !== null && NULL_BODY_STATUS.includes(this.#status)) throw new TypeError("Response: a response with status " + this.#status + " cannot have a body");
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
    formData() { return readAs(this.#body, "formData", "Response"); }

    static error() {
      const r = makeResponse(0, "", [], null, "error", "", false, true);
      return r;
    }

    static redirect(url, status) {
      const href = parseUrl(url, "Response.redirect");
      const s = status === undefined ? 302 : Number(status);
      if (!REDIRECT_STATUS.includes(s)) throw new RangeError("Response.redirect: status must be 301, 302, 303, 307 or 308");
      return makeResponse(s, "", [["location", href]], null, "default", "", false, true);
    }

    static json(data, init) {
      const body = JSON.stringify(data);
      if (body === undefined) throw new TypeError("Response.json: the data is not JSON-serializable");
      const headers = new Headers(init === undefined || init === null ? undefined : init.headers);
      if (!headers.has("content-type")) headers.set("content-type", "application/json");
      const o = init === undefined || init === null ? {} : init;
      return new Response(body, { status: o.status, statusText: o.statusText, headers });
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
    n = n.toLowerCase();
    return RESERVED.includes(n) || n.startsWith("proxy-");
  }

  function abortError(signal) {
    if (signal && signal.reason !== undefined) return signal.reason;
    const e = new Error("This operation was aborted");
    e.name = "AbortError";
    e.code = 20;
    return e;
  }

  // One `http` op. pairs: [[name, value], …]; body: Uint8Array or null. Resolves with the host's
  // result, rejects with the host's error.
  function perform(method, url, pairs, body, redirect, timeoutMs) {
    const args = {
      method,
      url,
      headers: pairs.filter((p) => !reservedHeader(p[0])),
      body: body === null ? null : bytesToBase64(body),
      redirect,
    };
    if (timeoutMs !== undefined) args.timeout_ms = timeoutMs;
    return natives.effect("http", args);
  }

  function fetch(input, init) {
    return new Promise((resolve, reject) => {
      let req;
      try {
        req = new Request(input, init);
      } catch (e) {
        reject(e);
        return;
      }
      const st = requestState(req);
      const signal = st.signal;
      if (signal && signal.aborted) {
        reject(abortError(signal));
        return;
      }
      const method = req.method;
      if (req.url.startsWith("data:")) { // answered here, as the Fetch standard does: no network
        const d = require("internal/dataurl").processDataUrl(req.url);
        if (d === null) {
          const err = new TypeError("fetch failed");
          err.cause = new TypeError("invalid data: URL " + JSON.stringify(req.url.length > 80 ? req.url.slice(0, 80) + "…" : req.url));
          reject(err);
          return;
        }
        resolve(makeResponse(200, "OK", [["content-type", d.mime]], method === "HEAD" ? null : d.bytes, "basic", req.url, false, true));
        return;
      }
      const bodyReady = st.body.has ? st.body.takeAll("fetch") : Promise.resolve(null);
      bodyReady.then((body) => {
        if (signal && signal.aborted) throw abortError(signal);
        return perform(method, req.url, listOf(req.headers).map((e) => [e[0], e[1]]), body, req.redirect).then(null, (e) => {
          const err = new TypeError(natives.messageOfError(e));
          err.cause = e;
          throw err;
        });
      }).then((r) => {
        if (signal && signal.aborted) { reject(abortError(signal)); return; }
        const nullBody = method === "HEAD" || NULL_BODY_STATUS.includes(r.status);
        const bytes = nullBody ? null : base64ToBytes(r.body);
        resolve(makeResponse(r.status, r.status_text, r.headers, bytes, "basic", r.url, r.redirected, true));
      }, reject);
    });
  }

  const internals = Object.freeze({ bytesToBase64, base64ToBytes, perform, reservedHeader, parseUrl, abortError });

  const exports = { fetch, Headers, Request, Response };
  Object.defineProperty(exports, "internals", { value: internals, enumerable: false });
  return Object.freeze(exports);
})
