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
 */
(function (require, natives, name) {
  "use strict";
  const CLIENT = Symbol.for("chidori.http.client");
  const fi = require("internal/fetch").internals;

  const events = require("events");
  const Emitter = typeof events === "function" ? events : events.EventEmitter;
  const Buffer = require("buffer").Buffer;

  const toChunk = (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

  // Node's encodings, through Buffer (utf8 keeps a BOM, as Node does).
  function normEncoding(enc) {
    if (!Buffer.isEncoding(enc)) {
      const e = new TypeError("Unknown encoding: " + String(enc));
      e.code = "ERR_UNKNOWN_ENCODING";
      throw e;
    }
    return String(enc).toLowerCase();
  }
  const decodeBytes = (bytes, enc) => toChunk(bytes).toString(enc);
  const encodeString = (s, enc) => new Uint8Array(Buffer.from(s, enc === undefined ? "utf8" : enc));

  function toBytes(chunk, encoding, what) {
    if (typeof chunk === "string") return encodeString(chunk, encoding);
    if (ArrayBuffer.isView(chunk)) return new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength).slice();
    if (chunk instanceof ArrayBuffer) return new Uint8Array(chunk).slice();
    const e = new TypeError("The \"chunk\" argument of " + what + " must be a string, Buffer or Uint8Array");
    e.code = "ERR_INVALID_ARG_TYPE";
    throw e;
  }

  function concat(chunks) {
    let n = 0;
    for (const c of chunks) n += c.length;
    const out = new Uint8Array(n);
    let o = 0;
    for (const c of chunks) { out.set(c, o); o += c.length; }
    return out;
  }

  function codeError(Ctor, code, message) {
    const e = new Ctor(message);
    e.code = code;
    return e;
  }

  const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

  function validateHeaderName(n) {
    if (typeof n !== "string" || !TOKEN.test(n)) throw codeError(TypeError, "ERR_INVALID_HTTP_TOKEN", "Header name must be a valid HTTP token [\"" + String(n) + "\"]");
  }

  function validateHeaderValue(n, v) {
    if (v === undefined) throw codeError(TypeError, "ERR_HTTP_INVALID_HEADER_VALUE", "Invalid value \"undefined\" for header \"" + n + "\"");
    const vs = Array.isArray(v) ? v : [v];
    for (const x of vs) {
      if (/[^\t\u0020-\u007e\u0080-\u00ff]/.test(String(x))) throw codeError(TypeError, "ERR_INVALID_CHAR", "Invalid character in header content [\"" + n + "\"]");
    }
  }

  // Node's combining of duplicate response headers into `headers`.
  const FIRST_WINS = ["age", "authorization", "content-length", "content-type", "etag", "expires", "from", "host",
    "if-modified-since", "if-unmodified-since", "last-modified", "location", "max-forwards", "proxy-authorization",
    "referer", "retry-after", "server", "user-agent"];

  function headersObject(pairs) {
    const h = Object.create(null), distinct = Object.create(null);
    for (const [n, v] of pairs) {
      (distinct[n] || (distinct[n] = [])).push(v);
      if (!(n in h)) { h[n] = n === "set-cookie" ? [v] : v; continue; }
      if (n === "set-cookie") h[n].push(v);
      else if (FIRST_WINS.includes(n)) continue;
      else h[n] += (n === "cookie" ? "; " : ", ") + v;
    }
    return { headers: Object.assign({}, h), distinct: Object.assign({}, distinct) };
  }

  /* ---- IncomingMessage: the response ---- */

  class IncomingMessage extends Emitter {
    #chunks; #flowing = null; #scheduled = false; #encoding = null; #ended = false; #readableListening = false;

    constructor(result) {
      super();
      const { headers, distinct } = headersObject(result.headers);
      this.statusCode = result.status;
      this.statusMessage = result.status_text;
      this.headers = headers;
      this.headersDistinct = distinct;
      this.rawHeaders = [];
      for (const [n, v] of result.headers) this.rawHeaders.push(n, v);
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
      this.#chunks = bytes.length ? [bytes] : [];
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
      const wrapped = (...a) => { this.removeListener(ev, wrapped); fn.apply(this, a); };
      wrapped.listener = fn;
      return this.on(ev, wrapped);
    }
    removeListener(ev, fn) {
      for (const l of this.listeners(ev)) if (l === fn || l.listener === fn) return super.removeListener(ev, l);
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
        while (this.#flowing && this.#chunks.length) this.emit("data", this.#out(this.#chunks.shift()));
        if (this.#flowing && !this.#chunks.length) this.#finish();
      } else if (this.#readableListening && !this.#ended) {
        this.emit("readable");
        if (!this.#chunks.length) this.#finish();
      }
    }

    read() {
      if (!this.#chunks.length) {
        if (!this.#ended) this.#schedule();
        return null;
      }
      const all = concat(this.#chunks.splice(0));
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
      this.#chunks = [];
      queueMicrotask(() => { if (err) this.emit("error", err); this.emit("close"); });
      return this;
    }

    async *[Symbol.asyncIterator]() {
      this.#flowing = false;
      while (this.#chunks.length) yield this.#out(this.#chunks.shift());
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
    let t = { protocol, auth: null, hostname: "localhost", port: null, path: "/" };
    if (url !== null) {
      const href = fi.parseUrl(url, "http.request");
      const m = URL_PARTS.exec(href);
      if (!m) throw codeError(TypeError, "ERR_INVALID_URL", "Invalid URL: " + href);
      t = { protocol: m[1].toLowerCase(), auth: m[2] ? decodeURIComponent(m[2]) : null,
        hostname: m[3].replace(/^\[|\]$/g, ""), port: m[4] ? Number(m[4]) : null, path: m[5] || "/" };
    }
    if (options.protocol !== undefined && options.protocol !== null) t.protocol = String(options.protocol);
    if (options.hostname !== undefined && options.hostname !== null) t.hostname = String(options.hostname);
    else if (options.host !== undefined && options.host !== null) t.hostname = String(options.host);
    if (options.port !== undefined && options.port !== null && options.port !== "") t.port = Number(options.port);
    if (options.defaultPort !== undefined && t.port === null) t.port = Number(options.defaultPort);
    if (options.path !== undefined && options.path !== null) t.path = String(options.path);
    if (options.auth !== undefined && options.auth !== null) t.auth = String(options.auth);
    if (t.protocol !== protocol) {
      throw codeError(TypeError, "ERR_INVALID_PROTOCOL", "Protocol \"" + t.protocol + "\" not supported. Expected \"" + protocol + "\"" +
        (protocol === "http:" ? " (use node:https for https: URLs)" : " (use node:http for http: URLs)"));
    }
    if (t.port !== null && !(Number.isInteger(t.port) && t.port >= 0 && t.port <= 65535))
      throw codeError(RangeError, "ERR_SOCKET_BAD_PORT", "Port should be >= 0 and < 65536. Received " + String(t.port) + ".");
    if (/[^\u0021-\u00ff]/.test(t.path)) throw codeError(TypeError, "ERR_UNESCAPED_CHARACTERS", "Request path contains unescaped characters");
    if (t.path[0] !== "/" && t.path[0] !== "?" && t.path !== "*") t.path = "/" + t.path;
    if (t.path[0] === "?") t.path = "/" + t.path;
    t.hostname = t.hostname.replace(/^\[|\]$/g, "");
    if (t.port === defaultPort) t.port = null;
    return t;
  }

  function urlOf(t) {
    const host = t.hostname.includes(":") ? "[" + t.hostname + "]" : t.hostname;
    return t.protocol + "//" + host + (t.port !== null ? ":" + t.port : "") + t.path;
  }

  let requestCounter = 0;

  class ClientRequest extends Emitter {
    #headers = new Map(); // lower name -> [name as given, value]
    #chunks = [];
    #timeoutMs;
    #signal;
    #dispatched = false;
    #url;

    constructor(url, options, callback, protocol, defaultPort) {
      super();
      for (const k of ["socketPath", "createConnection", "lookup", "localAddress"]) {
        if (options[k] !== undefined && options[k] !== null) notAvailable("the `" + k + "` option of http.request")();
      }
      const t = targetOf(url, options, protocol, defaultPort);
      let method = options.method;
      if (method !== undefined && method !== null && typeof method !== "string")
        throw codeError(TypeError, "ERR_INVALID_ARG_TYPE", "The \"options.method\" property must be of type string");
      if (method) {
        if (!TOKEN.test(method)) throw codeError(TypeError, "ERR_INVALID_HTTP_TOKEN", "Method must be a valid HTTP token [\"" + method + "\"]");
        method = method.toUpperCase();
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
      if (Array.isArray(hs)) {
        if (hs.length && Array.isArray(hs[0])) for (const [n, v] of hs) this.#append(n, v);
        else for (let i = 0; i + 1 < hs.length; i += 2) this.#append(hs[i], hs[i + 1]);
      } else if (hs !== undefined && hs !== null) {
        for (const k of Object.keys(hs)) if (hs[k] !== undefined) this.setHeader(k, hs[k]);
      }
      if (t.auth !== null && !this.hasHeader("authorization"))
        this.setHeader("Authorization", "Basic " + Buffer.from(t.auth, "utf8").toString("base64"));
      if (typeof callback === "function") this.once("response", callback);
      requestCounter++;
    }

    #append(n, v) {
      validateHeaderName(n);
      validateHeaderValue(n, v);
      const k = n.toLowerCase();
      const old = this.#headers.get(k);
      if (!old) this.#headers.set(k, [n, v]);
      else old[1] = [].concat(old[1], v);
    }

    #sent(what) {
      if (this.headersSent) throw codeError(Error, "ERR_HTTP_HEADERS_SENT", "Cannot " + what + " headers after they are sent to the client");
    }

    setHeader(n, v) {
      this.#sent("set");
      validateHeaderName(n);
      validateHeaderValue(n, v);
      this.#headers.set(n.toLowerCase(), [n, v]);
      return this;
    }
    appendHeader(n, v) { this.#sent("append"); this.#append(n, v); return this; }
    getHeader(n) { const e = this.#headers.get(String(n).toLowerCase()); return e ? e[1] : undefined; }
    getHeaders() { const o = Object.create(null); for (const [k, e] of this.#headers) o[k] = e[1]; return o; }
    getHeaderNames() { return [...this.#headers.keys()]; }
    getRawHeaderNames() { return [...this.#headers.values()].map((e) => e[0]); }
    hasHeader(n) { return this.#headers.has(String(n).toLowerCase()); }
    removeHeader(n) { this.#sent("remove"); this.#headers.delete(String(n).toLowerCase()); }
    flushHeaders() { }
    setNoDelay() { }
    setSocketKeepAlive() { }

    setTimeout(ms, cb) {
      const v = Number(ms);
      if (!(v >= 0) || !Number.isFinite(v)) throw codeError(TypeError, "ERR_INVALID_ARG_TYPE", "The \"msecs\" argument must be a non-negative number");
      this.#timeoutMs = v >= 1 ? Math.min(Math.floor(v), 86400000) : undefined; // 0 = no timeout of its own
      if (typeof cb === "function") this.once("timeout", cb);
      return this;
    }

    write(chunk, encoding, cb) {
      if (typeof encoding === "function") { cb = encoding; encoding = undefined; }
      if (this.writableEnded) {
        const e = codeError(Error, "ERR_STREAM_WRITE_AFTER_END", "write after end");
        queueMicrotask(() => { if (typeof cb === "function") cb(e); this.emit("error", e); });
        return false;
      }
      const b = toBytes(chunk, encoding, "request.write");
      this.#chunks.push(b);
      if (typeof cb === "function") queueMicrotask(() => cb());
      return true;
    }

    end(chunk, encoding, cb) {
      if (typeof chunk === "function") { cb = chunk; chunk = undefined; }
      else if (typeof encoding === "function") { cb = encoding; encoding = undefined; }
      if (this.writableEnded) return this;
      if (chunk !== undefined && chunk !== null) this.#chunks.push(toBytes(chunk, encoding, "request.end"));
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
      const pairs = [];
      for (const [, e] of this.#headers) {
        const vs = Array.isArray(e[1]) ? e[1] : [e[1]];
        for (const v of vs) pairs.push([e[0], String(v)]);
      }
      const body = this.#chunks.length ? concat(this.#chunks) : null;
      this.#chunks = [];
      let p;
      try {
        p = fi.perform(this.method, this.#url, pairs, body !== null && body.length === 0 && (this.method === "GET" || this.method === "HEAD") ? null : body,
          "manual", this.#timeoutMs);
      } catch (e) {
        p = Promise.reject(e);
      }
      p.then((result) => {
        if (this.destroyed) return;
        const res = new IncomingMessage(result);
        res.req = this;
        this.res = res;
        res.once("end", () => { if (!this.destroyed) { this.destroyed = true; this.emit("close"); } });
        if (!this.emit("response", res)) res.resume(); // nobody listens: drain it, as Node does
      }, (e) => {
        if (this.destroyed) return;
        const msg = natives.messageOfError(e);
        if (/ timed out after /.test(msg)) this.emit("timeout");
        this.destroyed = true;
        this.emit("error", e);
        this.emit("close");
      });
    }
  }

  function makeClient(protocol) {
    const defaultPort = protocol === "https:" ? 443 : 80;
    function request(...args) {
      let url = null, options = {}, cb;
      if (typeof args[0] === "string" || (args[0] !== null && typeof args[0] === "object" && typeof args[0].href === "string")) url = args.shift();
      if (args[0] !== null && typeof args[0] === "object") options = args.shift();
      else if (args[0] === null || args[0] === undefined) { if (args.length > 1) args.shift(); }
      if (typeof args[0] === "function") cb = args.shift();
      if (url === null && (typeof options !== "object" || options === null)) throw codeError(TypeError, "ERR_INVALID_ARG_TYPE", "The \"url\" argument must be a string, URL or options object");
      return new ClientRequest(url, options, cb, protocol, defaultPort);
    }
    function get(...args) {
      const req = request(...args);
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
      METHODS: METHODS.slice(), STATUS_CODES: Object.assign({}, STATUS_CODES),
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
  Object.defineProperty(exports, CLIENT, { value: makeClient, enumerable: false });
  return Object.freeze(exports);
})
