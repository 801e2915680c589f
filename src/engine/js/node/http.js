/* node/http.js — node:http's client (request, get, ClientRequest, IncomingMessage) over the host's
 * `http` op, the same op fetch uses (internal/fetch): one request per ClientRequest, performed by
 * the parent behind the SSRF guard and recorded, so a replay answers it from the call log.
 *
 * Node semantics kept: the request is sent after end() (asynchronously, so listeners added after
 * end() still see 'response'); redirects are not followed; the response is a readable that flows
 * once a 'data' listener, resume(), pipe() or async iteration asks for it; header names are lower
 * case in `headers` and duplicates combine as Node combines them. Differences: the whole body
 * arrives at once (one chunk), there is no socket, an in-flight request cannot be aborted (the
 * host call is synchronous; destroy() before it starts does stop it), and a GET or HEAD with a
 * body is refused by the host. Servers and agents do not exist here: createServer, Agent and
 * friends throw a clear error.
 *
 * node:https (https.js) is the same client for https: URLs, reached through CLIENT below.
 * Events come from node:events, chunks are Buffers (node:buffer).
 *
 * Primordials (docs/primordials.md): the method, URL, headers and body a request sends are built on
 * builtins captured before guest code (natives.primordials); UTF-8, the default encoding, goes
 * through internal/text rather than Buffer.
 */
(function (require, natives, name) {
  "use strict";
  const CLIENT = Symbol.for("chidori.http.client");
  const fi = require("internal/fetch").internals;
  const text = require("internal/text");
  const P = natives.primordials, u = P.uncurry;
  const { ReflectApply, StringCtor, NumberCtor, ArrayIsArray, ObjectKeys, ObjectCreate, ObjectFreeze, ObjectDefineProperty, NumberIsInteger, NumberIsFinite, MathFloor, ArrayBufferIsView, TypeErrorCtor, ErrorCtor, MapCtor, PromiseReject, PromiseThen, list, rec } = P;
  // globals and small forms in place of captures (docs/primordials.md: global bindings are not covered)
  const MathMin = (a, b) => (a < b ? a : b), Uint8ArrayCtor = Uint8Array, RangeErrorCtor = RangeError;
  const StringToLowerCase = u(P.StringPrototypeToLowerCase), StringToUpperCase = (s) => text.asciiUpper(s); // methods are tokens: ASCII
  const StringIncludes = u(P.StringPrototypeIncludes), StringSlice = u(P.StringPrototypeSlice);
  const StringCharCodeAt = u(P.StringPrototypeCharCodeAt), RegExpExec = u(P.RegExpPrototypeExec);
  const TypedArraySlice = u(P.TypedArrayPrototypeSlice), TypedArraySet = u(P.TypedArrayPrototypeSet);
  const ArrayIndexOf = u(P.ArrayPrototypeIndexOf), ArraySplice = u(P.ArrayPrototypeSplice), ArraySlice = u(P.ArrayPrototypeSlice);
  const MapGet = u(P.MapPrototypeGet), MapSet = u(P.MapPrototypeSet), MapHas = u(P.MapPrototypeHas);
  const MapDelete = u(P.MapPrototypeDelete), MapForEach = u(P.MapPrototypeForEach);
  const RegExpTest = (re, s) => RegExpExec(re, s) !== null;
  const push = (l, v) => { l[l.length] = v; };
  const pair = (a, b) => { const p = list(); p[0] = a; p[1] = b; return p; };

  const events = require("events");
  const Emitter = typeof events === "function" ? events : events.EventEmitter;
  // node:buffer only for encodings other than UTF-8, loaded then
  let BufferCtor = null;
  const getBuffer = () => (BufferCtor === null ? (BufferCtor = require("buffer").Buffer) : BufferCtor);

  const toChunk = (bytes) => text.asBuffer(bytes);
  const isUtf8 = (enc) => enc === "utf8" || enc === "utf-8";

  // Node's encodings, through Buffer (utf8 keeps a BOM, as Node does); UTF-8 through internal/text.
  function normEncoding(enc) {
    if (isUtf8(enc)) return enc;
    if (!getBuffer().isEncoding(enc)) {
      const e = new TypeErrorCtor("Unknown encoding: " + StringCtor(enc));
      e.code = "ERR_UNKNOWN_ENCODING";
      throw e;
    }
    return StringToLowerCase(StringCtor(enc));
  }
  const decodeBytes = (bytes, enc) => (isUtf8(enc) ? text.utf8Decode(bytes) : toChunk(bytes).toString(enc));
  const encodeString = (s, enc) => (enc === undefined || isUtf8(enc) ? text.utf8Encode(s)
    : new Uint8ArrayCtor(getBuffer().from(s, enc)));

  function toBytes(chunk, encoding, what) {
    if (typeof chunk === "string") return encodeString(chunk, encoding);
    if (ArrayBufferIsView(chunk)) return TypedArraySlice(new Uint8ArrayCtor(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    if (chunk instanceof ArrayBuffer) return TypedArraySlice(new Uint8ArrayCtor(chunk));
    const e = new TypeErrorCtor("The \"chunk\" argument of " + what + " must be a string, Buffer or Uint8Array");
    e.code = "ERR_INVALID_ARG_TYPE";
    throw e;
  }

  function concat(chunks) {
    let n = 0;
    for (let i = 0; i < chunks.length; i++) n += chunks[i].length;
    const out = new Uint8ArrayCtor(n);
    let o = 0;
    for (let i = 0; i < chunks.length; i++) { TypedArraySet(out, chunks[i], o); o += chunks[i].length; }
    return out;
  }

  function codeError(Ctor, code, message) {
    const e = new Ctor(message);
    e.code = code;
    return e;
  }

  const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

  function validateHeaderName(n) {
    if (typeof n !== "string" || !RegExpTest(TOKEN, n)) throw codeError(TypeErrorCtor, "ERR_INVALID_HTTP_TOKEN", "Header name must be a valid HTTP token [\"" + StringCtor(n) + "\"]");
  }

  function validateHeaderValue(n, v) {
    if (v === undefined) throw codeError(TypeErrorCtor, "ERR_HTTP_INVALID_HEADER_VALUE", "Invalid value \"undefined\" for header \"" + n + "\"");
    const one = (x) => {
      if (RegExpTest(/[^\t\u0020-\u007e\u0080-\u00ff]/, StringCtor(x))) throw codeError(TypeErrorCtor, "ERR_INVALID_CHAR", "Invalid character in header content [\"" + n + "\"]");
    };
    if (ArrayIsArray(v)) { for (let i = 0; i < v.length; i++) one(v[i]); }
    else one(v);
  }

  // Node's combining of duplicate response headers into `headers`.
  const FIRST_WINS = ["age", "authorization", "content-length", "content-type", "etag", "expires", "from", "host",
    "if-modified-since", "if-unmodified-since", "last-modified", "location", "max-forwards", "proxy-authorization",
    "referer", "retry-after", "server", "user-agent"];

  // Arrays handed to the guest are filled by definition (no Array.prototype setter runs).
  const append = (a, v) => P.defineValue(a, a.length, v);
  // A plain object for the guest with the own properties of o (a prototype-less record), defined.
  function plainOf(o) {
    const out = {}, keys = ObjectKeys(o);
    for (let i = 0; i < keys.length; i++) P.defineValue(out, keys[i], o[keys[i]]);
    return out;
  }

  function headersObject(pairs) {
    const h = ObjectCreate(null), distinct = ObjectCreate(null);
    for (let i = 0; i < pairs.length; i++) {
      const n = pairs[i][0], v = pairs[i][1];
      append(distinct[n] || (distinct[n] = []), v);
      if (!(n in h)) { if (n === "set-cookie") append(h[n] = [], v); else h[n] = v; continue; }
      if (n === "set-cookie") append(h[n], v);
      else if (ArrayIndexOf(FIRST_WINS, n) >= 0) continue;
      else h[n] += (n === "cookie" ? "; " : ", ") + v;
    }
    return { __proto__: null, headers: plainOf(h), distinct: plainOf(distinct) };
  }

  /* ---- IncomingMessage: the response ---- */

  class IncomingMessage extends Emitter {
    #chunks; #flowing = null; #scheduled = false; #encoding = null; #ended = false; #readableListening = false;
    // own from the start (defined, not assigned): no setter a guest put on Object.prototype runs
    statusCode; statusMessage; headers; headersDistinct; rawHeaders; trailers; trailersDistinct; rawTrailers;
    httpVersion; httpVersionMajor; httpVersionMinor; method; url; complete; aborted; socket; readableEnded;
    destroyed; req;

    constructor(result) {
      super();
      const hd = headersObject(result.headers);
      this.statusCode = result.status;
      this.statusMessage = result.status_text;
      this.headers = hd.headers;
      this.headersDistinct = hd.distinct;
      this.rawHeaders = [];
      for (let i = 0; i < result.headers.length; i++) { append(this.rawHeaders, result.headers[i][0]); append(this.rawHeaders, result.headers[i][1]); }
      this.trailers = {};
      this.trailersDistinct = {};
      this.rawTrailers = [];
      this.httpVersion = "1.1";
      this.httpVersionMajor = 1;
      this.httpVersionMinor = 1;
      this.method = null;
      this.url = "";
      this.complete = true;
      this.aborted = false;
      this.socket = null;
      this.readableEnded = false;
      this.destroyed = false;
      const bytes = fi.base64ToBytes(result.body);
      this.#chunks = list();
      if (bytes.length) this.#chunks[0] = bytes;
    }

    on(ev, fn) {
      super.on(ev, fn);
      if (ev === "data" && this.#flowing !== false) this.resume();
      if (ev === "readable") { this.#readableListening = true; this.#schedule(); }
      if (ev === "end" && this.#ended) { /* already over: like Node, no second 'end' */ }
      return this;
    }
    addListener(ev, fn) { return this.on(ev, fn); }
    once(ev, fn) {
      const wrapped = (...a) => { this.removeListener(ev, wrapped); ReflectApply(fn, this, a); };
      wrapped.listener = fn;
      return this.on(ev, wrapped);
    }
    removeListener(ev, fn) {
      const ls = this.listeners(ev);
      for (let i = 0; i < ls.length; i++) { const l = ls[i]; if (l === fn || l.listener === fn) return super.removeListener(ev, l); }
      return this;
    }
    off(ev, fn) { return this.removeListener(ev, fn); }

    setEncoding(enc) { this.#encoding = normEncoding(enc); return this; }
    get readableEncoding() { return this.#encoding; }
    get readableFlowing() { return this.#flowing; }
    isPaused() { return this.#flowing === false; }
    pause() { this.#flowing = false; return this; }
    resume() { this.#flowing = true; this.#schedule(); return this; }
    setTimeout(ms, cb) { if (typeof cb === "function") this.once("timeout", cb); return this; }

    #out(bytes) { return this.#encoding ? decodeBytes(bytes, this.#encoding) : toChunk(bytes); }

    #schedule() {
      if (this.#scheduled || this.destroyed) return;
      this.#scheduled = true;
      queueMicrotask(() => { this.#scheduled = false; this.#flush(); });
    }

    #finish() {
      if (this.#ended) return;
      this.#ended = true;
      this.readableEnded = true;
      this.emit("end");
      this.emit("close");
    }

    #flush() {
      if (this.destroyed) return;
      if (this.#flowing) {
        while (this.#flowing && this.#chunks.length) this.emit("data", this.#out(this.#shift()));
        if (this.#flowing && !this.#chunks.length) this.#finish();
      } else if (this.#readableListening && !this.#ended) {
        this.emit("readable");
        if (!this.#chunks.length) this.#finish();
      }
    }

    #shift() { return ArraySplice(this.#chunks, 0, 1)[0]; }

    read() {
      if (!this.#chunks.length) {
        if (!this.#ended) this.#schedule();
        return null;
      }
      const all = concat(this.#chunks);
      this.#chunks = list();
      this.#schedule();
      return this.#out(all);
    }

    pipe(dest, opts) {
      this.on("data", (c) => dest.write(c));
      if (!opts || opts.end !== false) this.once("end", () => dest.end());
      return dest;
    }

    destroy(err) {
      if (this.destroyed) return this;
      this.destroyed = true;
      this.#chunks = list();
      queueMicrotask(() => { if (err) this.emit("error", err); this.emit("close"); });
      return this;
    }

    async *[Symbol.asyncIterator]() {
      this.#flowing = false;
      while (this.#chunks.length) yield this.#out(this.#shift());
      this.#ended = true;
      this.readableEnded = true;
    }
  }

  /* ---- ClientRequest ---- */

  const METHODS = ["ACL", "BIND", "CHECKOUT", "CONNECT", "COPY", "DELETE", "GET", "HEAD", "LINK", "LOCK", "M-SEARCH",
    "MERGE", "MKACTIVITY", "MKCALENDAR", "MKCOL", "MOVE", "NOTIFY", "OPTIONS", "PATCH", "POST", "PROPFIND",
    "PROPPATCH", "PURGE", "PUT", "QUERY", "REBIND", "REPORT", "SEARCH", "SOURCE", "SUBSCRIBE", "TRACE", "UNBIND",
    "UNLINK", "UNLOCK", "UNSUBSCRIBE"];

  const STATUS_CODES = {
    100: "Continue", 101: "Switching Protocols", 102: "Processing", 103: "Early Hints",
    200: "OK", 201: "Created", 202: "Accepted", 203: "Non-Authoritative Information", 204: "No Content",
    205: "Reset Content", 206: "Partial Content", 207: "Multi-Status", 208: "Already Reported", 226: "IM Used",
    300: "Multiple Choices", 301: "Moved Permanently", 302: "Found", 303: "See Other", 304: "Not Modified",
    305: "Use Proxy", 307: "Temporary Redirect", 308: "Permanent Redirect",
    400: "Bad Request", 401: "Unauthorized", 402: "Payment Required", 403: "Forbidden", 404: "Not Found",
    405: "Method Not Allowed", 406: "Not Acceptable", 407: "Proxy Authentication Required", 408: "Request Timeout",
    409: "Conflict", 410: "Gone", 411: "Length Required", 412: "Precondition Failed", 413: "Payload Too Large",
    414: "URI Too Long", 415: "Unsupported Media Type", 416: "Range Not Satisfiable", 417: "Expectation Failed",
    418: "I'm a Teapot", 421: "Misdirected Request", 422: "Unprocessable Entity", 423: "Locked",
    424: "Failed Dependency", 425: "Too Early", 426: "Upgrade Required", 428: "Precondition Required",
    429: "Too Many Requests", 431: "Request Header Fields Too Large", 451: "Unavailable For Legal Reasons",
    500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable",
    504: "Gateway Timeout", 505: "HTTP Version Not Supported", 506: "Variant Also Negotiates",
    507: "Insufficient Storage", 508: "Loop Detected", 509: "Bandwidth Limit Exceeded", 510: "Not Extended",
    511: "Network Authentication Required",
  };

  const URL_PARTS = /^([A-Za-z][A-Za-z0-9+.-]*:)\/\/(?:([^@/?#]*)@)?(\[[^\]]*\]|[^:/?#]*)(?::([0-9]*))?([^#]*)/;

  function notAvailable(what) {
    return function () {
      throw codeError(Error, "ERR_CHIDORI_UNAVAILABLE", what + " is not available in chidori: agents make outgoing " +
        "requests only (http.request, http.get, fetch); there are no servers, sockets or connection agents");
    };
  }

  // The request's target from (url?, options): {protocol, auth, hostname, port, path}.
  function targetOf(url, options, protocol, defaultPort) {
    let t = { __proto__: null, protocol, auth: null, hostname: "localhost", port: null, path: "/" };
    if (url !== null) {
      const href = fi.parseUrl(url, "http.request");
      const m = RegExpExec(URL_PARTS, href);
      if (!m) throw codeError(TypeErrorCtor, "ERR_INVALID_URL", "Invalid URL: " + href);
      t = { __proto__: null, protocol: StringToLowerCase(m[1]), auth: m[2] ? P.DecodeURIComponent(m[2]) : null,
        hostname: unbracket(m[3]), port: m[4] ? NumberCtor(m[4]) : null, path: m[5] || "/" };
    }
    if (options.protocol !== undefined && options.protocol !== null) t.protocol = StringCtor(options.protocol);
    if (options.hostname !== undefined && options.hostname !== null) t.hostname = StringCtor(options.hostname);
    else if (options.host !== undefined && options.host !== null) t.hostname = StringCtor(options.host);
    if (options.port !== undefined && options.port !== null && options.port !== "") t.port = NumberCtor(options.port);
    if (options.defaultPort !== undefined && t.port === null) t.port = NumberCtor(options.defaultPort);
    if (options.path !== undefined && options.path !== null) t.path = StringCtor(options.path);
    if (options.auth !== undefined && options.auth !== null) t.auth = StringCtor(options.auth);
    if (t.protocol !== protocol) {
      throw codeError(TypeErrorCtor, "ERR_INVALID_PROTOCOL", "Protocol \"" + t.protocol + "\" not supported. Expected \"" + protocol + "\"" +
        (protocol === "http:" ? " (use node:https for https: URLs)" : " (use node:http for http: URLs)"));
    }
    if (t.port !== null && !(NumberIsInteger(t.port) && t.port >= 0 && t.port <= 65535))
      throw codeError(RangeErrorCtor, "ERR_SOCKET_BAD_PORT", "Port should be >= 0 and < 65536. Received " + StringCtor(t.port) + ".");
    if (RegExpTest(/[^\u0021-\u00ff]/, t.path)) throw codeError(TypeErrorCtor, "ERR_UNESCAPED_CHARACTERS", "Request path contains unescaped characters");
    if (t.path[0] !== "/" && t.path[0] !== "?" && t.path !== "*") t.path = "/" + t.path;
    if (t.path[0] === "?") t.path = "/" + t.path;
    t.hostname = unbracket(t.hostname);
    if (t.port === defaultPort) t.port = null;
    return t;
  }

  // "[::1]" → "::1" (one bracket at each end, each removed on its own, as the pattern /^\[|\]$/g did)
  function unbracket(h) {
    let a = 0, b = h.length;
    if (b > 0 && StringCharCodeAt(h, 0) === 91) a = 1;
    if (b > a && StringCharCodeAt(h, b - 1) === 93) b--;
    return a === 0 && b === h.length ? h : StringSlice(h, a, b);
  }

  function urlOf(t) {
    const host = StringIncludes(t.hostname, ":") ? "[" + t.hostname + "]" : t.hostname;
    return t.protocol + "//" + host + (t.port !== null ? ":" + t.port : "") + t.path;
  }

  let requestCounter = 0;

  const UNSUPPORTED_OPTIONS = ["socketPath", "createConnection", "lookup", "localAddress"];

  class ClientRequest extends Emitter {
    #headers = new MapCtor(); // lower name -> pair(name as given, value)
    #chunks = list();
    #timeoutMs;
    #signal;
    #dispatched = false;
    #url;
    // own from the start (defined, not assigned): no setter a guest put on Object.prototype runs
    method; protocol; host; path; headersSent; finished; writableEnded; writableFinished; aborted; destroyed;
    reusedSocket; socket; res; maxHeadersCount;

    constructor(url, options, callback, protocol, defaultPort) {
      super();
      for (let i = 0; i < UNSUPPORTED_OPTIONS.length; i++) {
        const k = UNSUPPORTED_OPTIONS[i];
        if (options[k] !== undefined && options[k] !== null) notAvailable("the `" + k + "` option of http.request")();
      }
      const t = targetOf(url, options, protocol, defaultPort);
      let method = options.method;
      if (method !== undefined && method !== null && typeof method !== "string")
        throw codeError(TypeErrorCtor, "ERR_INVALID_ARG_TYPE", "The \"options.method\" property must be of type string");
      if (method) {
        if (!RegExpTest(TOKEN, method)) throw codeError(TypeErrorCtor, "ERR_INVALID_HTTP_TOKEN", "Method must be a valid HTTP token [\"" + method + "\"]");
        method = StringToUpperCase(method);
      } else {
        method = "GET";
      }
      this.method = method;
      this.protocol = t.protocol;
      this.host = t.hostname;
      this.path = t.path;
      this.headersSent = false;
      this.finished = false;
      this.writableEnded = false;
      this.writableFinished = false;
      this.aborted = false;
      this.destroyed = false;
      this.reusedSocket = false;
      this.socket = null;
      this.res = null;
      this.maxHeadersCount = null;
      this.#url = urlOf(t);
      this.#signal = options.signal;
      if (options.timeout !== undefined) this.setTimeout(options.timeout);
      const hs = options.headers;
      if (ArrayIsArray(hs)) {
        if (hs.length && ArrayIsArray(hs[0])) for (let i = 0; i < hs.length; i++) this.#append(hs[i][0], hs[i][1]);
        else for (let i = 0; i + 1 < hs.length; i += 2) this.#append(hs[i], hs[i + 1]);
      } else if (hs !== undefined && hs !== null) {
        const keys = ObjectKeys(hs);
        for (let i = 0; i < keys.length; i++) if (hs[keys[i]] !== undefined) this.setHeader(keys[i], hs[keys[i]]);
      }
      if (t.auth !== null && !this.hasHeader("authorization"))
        this.setHeader("Authorization", "Basic " + text.bytesToBase64(text.utf8Encode(t.auth), false));
      if (typeof callback === "function") this.once("response", callback);
      requestCounter++;
    }

    #append(n, v) {
      validateHeaderName(n);
      validateHeaderValue(n, v);
      const k = StringToLowerCase(n);
      const old = MapGet(this.#headers, k);
      if (!old) { MapSet(this.#headers, k, pair(n, v)); return; }
      const all = list();
      const add = (x) => { if (ArrayIsArray(x)) { for (let i = 0; i < x.length; i++) push(all, x[i]); } else push(all, x); };
      add(old[1]);
      add(v);
      old[1] = all;
    }

    #sent(what) {
      if (this.headersSent) throw codeError(ErrorCtor, "ERR_HTTP_HEADERS_SENT", "Cannot " + what + " headers after they are sent to the client");
    }

    setHeader(n, v) {
      this.#sent("set");
      validateHeaderName(n);
      validateHeaderValue(n, v);
      MapSet(this.#headers, StringToLowerCase(n), pair(n, v));
      return this;
    }
    appendHeader(n, v) { this.#sent("append"); this.#append(n, v); return this; }
    // a value as the guest sees it: a list becomes an ordinary array
    #shown(v) { return ArrayIsArray(v) && P.ObjectGetPrototypeOf(v) === null ? ArraySlice(v) : v; }
    getHeader(n) { const e = MapGet(this.#headers, StringToLowerCase(StringCtor(n))); return e ? this.#shown(e[1]) : undefined; }
    getHeaders() { const o = ObjectCreate(null); MapForEach(this.#headers, (e, k) => { o[k] = this.#shown(e[1]); }); return o; }
    getHeaderNames() { const a = []; MapForEach(this.#headers, (e, k) => append(a, k)); return a; }
    getRawHeaderNames() { const a = []; MapForEach(this.#headers, (e) => append(a, e[0])); return a; }
    hasHeader(n) { return MapHas(this.#headers, StringToLowerCase(StringCtor(n))); }
    removeHeader(n) { this.#sent("remove"); MapDelete(this.#headers, StringToLowerCase(StringCtor(n))); }
    flushHeaders() { }
    setNoDelay() { }
    setSocketKeepAlive() { }

    setTimeout(ms, cb) {
      const v = NumberCtor(ms);
      if (!(v >= 0) || !NumberIsFinite(v)) throw codeError(TypeErrorCtor, "ERR_INVALID_ARG_TYPE", "The \"msecs\" argument must be a non-negative number");
      this.#timeoutMs = v >= 1 ? MathMin(MathFloor(v), 86400000) : undefined; // 0 = no timeout of its own
      if (typeof cb === "function") this.once("timeout", cb);
      return this;
    }

    write(chunk, encoding, cb) {
      if (typeof encoding === "function") { cb = encoding; encoding = undefined; }
      if (this.writableEnded) {
        const e = codeError(ErrorCtor, "ERR_STREAM_WRITE_AFTER_END", "write after end");
        queueMicrotask(() => { if (typeof cb === "function") cb(e); this.emit("error", e); });
        return false;
      }
      const b = toBytes(chunk, encoding, "request.write");
      push(this.#chunks, b);
      if (typeof cb === "function") queueMicrotask(() => cb());
      return true;
    }

    end(chunk, encoding, cb) {
      if (typeof chunk === "function") { cb = chunk; chunk = undefined; }
      else if (typeof encoding === "function") { cb = encoding; encoding = undefined; }
      if (this.writableEnded) return this;
      if (chunk !== undefined && chunk !== null) push(this.#chunks, toBytes(chunk, encoding, "request.end"));
      this.writableEnded = true;
      this.finished = true;
      this.headersSent = true;
      if (typeof cb === "function") this.once("finish", cb);
      queueMicrotask(() => this.#dispatch());
      return this;
    }

    abort() {
      if (this.aborted) return;
      this.aborted = true;
      queueMicrotask(() => this.emit("abort"));
      this.destroy();
    }

    destroy(err) {
      if (this.destroyed) return this;
      this.destroyed = true;
      queueMicrotask(() => {
        if (err) this.emit("error", err);
        this.emit("close");
      });
      return this;
    }

    #dispatch() {
      if (this.destroyed || this.#dispatched) return;
      this.#dispatched = true;
      if (this.#signal && this.#signal.aborted) { this.destroy(fi.abortError(this.#signal)); return; }
      this.writableFinished = true;
      this.emit("finish");
      const pairs = list();
      MapForEach(this.#headers, (e) => {
        const v = e[1];
        if (ArrayIsArray(v)) { for (let i = 0; i < v.length; i++) push(pairs, pair(e[0], StringCtor(v[i]))); }
        else push(pairs, pair(e[0], StringCtor(v)));
      });
      const body = this.#chunks.length ? concat(this.#chunks) : null;
      this.#chunks = list();
      let p;
      try {
        p = fi.perform(this.method, this.#url, pairs, body !== null && body.length === 0 && (this.method === "GET" || this.method === "HEAD") ? null : body,
          "manual", this.#timeoutMs);
      } catch (e) {
        p = PromiseReject(e);
      }
      PromiseThen(p, (result) => {
        if (this.destroyed) return;
        const res = new IncomingMessage(result);
        res.req = this;
        this.res = res;
        res.once("end", () => { if (!this.destroyed) { this.destroyed = true; this.emit("close"); } });
        if (!this.emit("response", res)) res.resume(); // nobody listens: drain it, as Node does
      }, (e) => {
        if (this.destroyed) return;
        const msg = natives.messageOfError(e);
        if (StringIncludes(msg, " timed out after ")) this.emit("timeout");
        this.destroyed = true;
        this.emit("error", e);
        this.emit("close");
      });
    }
  }

  function makeClient(protocol) {
    const defaultPort = protocol === "https:" ? 443 : 80;
    function request(...args) {
      let url = null, options = { __proto__: null }, cb, i = 0;
      if (typeof args[i] === "string" || (args[i] !== null && typeof args[i] === "object" && typeof args[i].href === "string")) url = args[i++];
      if (args[i] !== null && typeof args[i] === "object") options = args[i++];
      else if (args[i] === null || args[i] === undefined) { if (args.length - i > 1) i++; }
      if (typeof args[i] === "function") cb = args[i++];
      if (url === null && (typeof options !== "object" || options === null)) throw codeError(TypeErrorCtor, "ERR_INVALID_ARG_TYPE", "The \"url\" argument must be a string, URL or options object");
      return new ClientRequest(url, options, cb, protocol, defaultPort);
    }
    function get(...args) {
      const req = ReflectApply(request, undefined, args);
      req.end();
      return req;
    }
    const unavailableAgent = new Proxy({}, {
      get: notAvailable(protocol === "https:" ? "https.globalAgent" : "http.globalAgent"),
      set: notAvailable(protocol === "https:" ? "https.globalAgent" : "http.globalAgent"),
    });
    const mod = protocol === "https:" ? "https" : "http";
    const exports = {
      request, get,
      ClientRequest, IncomingMessage,
      METHODS: ArraySlice(METHODS), STATUS_CODES: plainOf(STATUS_CODES),
      maxHeaderSize: 16384,
      validateHeaderName, validateHeaderValue,
      createServer: notAvailable(mod + ".createServer"),
      Server: notAvailable(mod + ".Server"),
      ServerResponse: notAvailable(mod + ".ServerResponse"),
      OutgoingMessage: notAvailable(mod + ".OutgoingMessage"),
      Agent: notAvailable(mod + ".Agent"),
      globalAgent: unavailableAgent,
      setMaxIdleHTTPParsers: notAvailable(mod + ".setMaxIdleHTTPParsers"),
    };
    return exports;
  }

  const exports = makeClient("http:");
  ObjectDefineProperty(exports, CLIENT, { __proto__: null, value: makeClient, enumerable: false });
  return ObjectFreeze(exports);
})
