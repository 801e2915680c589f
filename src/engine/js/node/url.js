/* node/url.js — node:url, and the URL / URLSearchParams globals.
 *
 * URL and URLSearchParams follow the WHATWG URL Standard (the parser, hosts and serializer are in
 * internal/url, IDNA in internal/idna); a URL's searchParams is live-linked both ways. The Node
 * helpers: fileURLToPath / pathToFileURL (POSIX rules; a relative path is resolved against "/",
 * the working directory of a chidori run), format (a URL with Node's options, or a legacy object),
 * domainToASCII / domainToUnicode (an empty string on failure, as in Node), urlToHttpOptions.
 *
 * The legacy API (parse, resolve, resolveObject, Url) is APPROXIMATE: it gives Node's fields
 * (protocol, slashes, auth, host, port, hostname, hash, search, query, pathname, path, href) for
 * the common shapes of input (absolute URLs with auth/port/IPv6, scheme-relative with
 * slashesDenoteHost, relative paths, mailto:/javascript:), but not all of Node's quirks (e.g. its
 * handling of invalid hostnames or of characters Node escapes in unusual places). New code should
 * use URL.
 * Trusts nothing: every argument is guest data; errors are TypeErrors with Node's codes.
 */
(function (require, natives, name) {
  "use strict";
  const P = require("internal/url");
  const idna = require("internal/idna");
  const S = P.STATES;

  function nodeError(Ctor, code, message, extra) {
    const err = new Ctor(message);
    err.code = code;
    if (extra) Object.assign(err, extra);
    return err;
  }
  const invalidURL = (input, base) =>
    nodeError(TypeError, "ERR_INVALID_URL", "Invalid URL", base === undefined ? { input } : { input, base });
  const missingArgs = (names) => nodeError(TypeError, "ERR_MISSING_ARGS",
    names.length === 1 ? `The "${names[0]}" argument must be specified`
      : `The "${names[0]}" and "${names[1]}" arguments must be specified`);

  // WebIDL USVString: String conversion (symbols throw), lone surrogates → U+FFFD.
  const usv = (v) => `${v}`.toWellFormed();

  function parseRecord(input, base) {
    let baseRec = null;
    if (base !== undefined) {
      baseRec = P.basicParse(usv(base), null, null, 0);
      if (baseRec === P.FAILURE) return P.FAILURE;
    }
    return P.basicParse(usv(input), baseRec, null, 0);
  }

  /* ---- URLSearchParams ---- */

  let paramsList, linkParams, replaceParams;

  class URLSearchParams {
    #list = [];
    #url = null; // the owning URL, or null

    static {
      paramsList = (p) => p.#list;
      linkParams = (p, url) => { p.#url = url; };
      replaceParams = (p, list) => { p.#list = list; };
    }

    constructor(init = undefined) {
      if (init === undefined || init === null) return;
      if (typeof init === "object" || typeof init === "function") {
        const iter = init[Symbol.iterator];
        if (typeof iter === "function") {
          for (const pair of init) {
            if ((typeof pair !== "object" && typeof pair !== "function") || pair === null ||
                typeof pair[Symbol.iterator] !== "function") {
              throw nodeError(TypeError, "ERR_INVALID_TUPLE", "Each query pair must be an iterable [name, value] tuple");
            }
            const items = Array.from(pair);
            if (items.length !== 2) {
              throw nodeError(TypeError, "ERR_INVALID_TUPLE", "Each query pair must be an iterable [name, value] tuple");
            }
            this.#list.push([usv(items[0]), usv(items[1])]);
          }
        } else if (iter !== undefined) {
          throw nodeError(TypeError, "ERR_ARG_NOT_ITERABLE", "Query pairs must be iterable");
        } else {
          const keys = Reflect.ownKeys(init);
          for (let i = 0; i < keys.length; i++) {
            const k = keys[i];
            if (typeof k !== "string") continue;
            const d = Reflect.getOwnPropertyDescriptor(init, k);
            if (d && d.enumerable) this.#list.push([usv(k), usv(init[k])]);
          }
        }
        return;
      }
      let s = usv(init);
      if (s[0] === "?") s = s.slice(1);
      this.#list = P.parseForm(s);
    }

    #update() {
      if (this.#url === null) return;
      const rec = urlRecord(this.#url);
      const q = P.serializeForm(this.#list);
      rec.query = q === "" ? null : q;
    }

    get size() { return this.#list.length; }

    append(name, value) {
      if (arguments.length < 2) throw missingArgs(["name", "value"]);
      this.#list.push([usv(name), usv(value)]);
      this.#update();
    }

    delete(name, value = undefined) {
      if (arguments.length < 1) throw missingArgs(["name"]);
      name = usv(name);
      const v = value === undefined ? undefined : usv(value);
      this.#list = this.#list.filter((p) => !(p[0] === name && (v === undefined || p[1] === v)));
      this.#update();
    }

    get(name) {
      if (arguments.length < 1) throw missingArgs(["name"]);
      name = usv(name);
      for (const p of this.#list) if (p[0] === name) return p[1];
      return null;
    }

    getAll(name) {
      if (arguments.length < 1) throw missingArgs(["name"]);
      name = usv(name);
      return this.#list.filter((p) => p[0] === name).map((p) => p[1]);
    }

    has(name, value = undefined) {
      if (arguments.length < 1) throw missingArgs(["name"]);
      name = usv(name);
      const v = value === undefined ? undefined : usv(value);
      return this.#list.some((p) => p[0] === name && (v === undefined || p[1] === v));
    }

    set(name, value) {
      if (arguments.length < 2) throw missingArgs(["name", "value"]);
      name = usv(name);
      value = usv(value);
      const i = this.#list.findIndex((p) => p[0] === name);
      if (i < 0) {
        this.#list.push([name, value]);
      } else {
        this.#list[i][1] = value;
        this.#list = this.#list.filter((p, j) => j <= i || p[0] !== name);
      }
      this.#update();
    }

    sort() {
      // Stable (Array.prototype.sort is), by UTF-16 code units of the names.
      this.#list.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
      this.#update();
    }

    forEach(callback, thisArg = undefined) {
      if (typeof callback !== "function") {
        throw nodeError(TypeError, "ERR_INVALID_ARG_TYPE", 'The "callback" argument must be of type function');
      }
      for (let i = 0; i < this.#list.length; i++) {
        const p = this.#list[i];
        callback.call(thisArg, p[1], p[0], this);
      }
    }

    entries() { return new ParamsIterator(this, "entries"); }
    keys() { return new ParamsIterator(this, "keys"); }
    values() { return new ParamsIterator(this, "values"); }

    toString() { return P.serializeForm(this.#list); }

  }
  Object.defineProperty(URLSearchParams.prototype, Symbol.iterator,
    { value: URLSearchParams.prototype.entries, writable: true, enumerable: false, configurable: true });

  // The pair iterator: reads the live list by index, as WebIDL iterators do.
  const IteratorPrototype = Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]()));
  class ParamsIterator {
    #params; #kind; #index = 0;
    constructor(params, kind) { this.#params = params; this.#kind = kind; }
    next() {
      const list = paramsList(this.#params);
      if (this.#index >= list.length) return { value: undefined, done: true };
      const p = list[this.#index++];
      const value = this.#kind === "keys" ? p[0] : this.#kind === "values" ? p[1] : [p[0], p[1]];
      return { value, done: false };
    }
  }
  Object.setPrototypeOf(ParamsIterator.prototype, IteratorPrototype);
  Object.defineProperty(ParamsIterator.prototype, Symbol.toStringTag, { value: "URLSearchParams Iterator", configurable: true });

  /* ---- URL ---- */

  let urlRecord;

  const cannotHaveCredentialsOrPort = (rec) => rec.host === null || rec.host === "" || rec.scheme === "file";

  class URL {
    #rec;
    #params;

    static {
      urlRecord = (u) => u.#rec;
    }

    constructor(url, base = undefined) {
      if (arguments.length < 1) throw missingArgs(["url"]);
      const rec = parseRecord(url, base);
      if (rec === P.FAILURE) throw invalidURL(`${url}`, base === undefined ? undefined : `${base}`);
      this.#rec = rec;
      this.#params = new URLSearchParams();
      linkParams(this.#params, this);
      this.#syncParams();
    }

    static canParse(url, base = undefined) {
      if (arguments.length < 1) throw missingArgs(["url"]);
      return parseRecord(url, base) !== P.FAILURE;
    }

    static parse(url, base = undefined) {
      if (arguments.length < 1) throw missingArgs(["url"]);
      try {
        return new URL(url, base);
      } catch (e) {
        if (e && e.code === "ERR_INVALID_URL") return null;
        throw e;
      }
    }

    static createObjectURL() {
      throw nodeError(Error, "ERR_CHIDORI_UNAVAILABLE", "URL.createObjectURL is not available in chidori (there is no Blob store)");
    }

    static revokeObjectURL() {
      throw nodeError(Error, "ERR_CHIDORI_UNAVAILABLE", "URL.revokeObjectURL is not available in chidori (there is no Blob store)");
    }

    #syncParams() {
      replaceParams(this.#params, this.#rec.query === null ? [] : P.parseForm(this.#rec.query));
    }

    get href() { return P.serialize(this.#rec, false); }
    set href(value) {
      value = usv(value);
      const rec = P.basicParse(value, null, null, 0);
      if (rec === P.FAILURE) throw invalidURL(value);
      this.#rec = rec;
      this.#syncParams();
    }

    get origin() { return P.origin(this.#rec); }

    get protocol() { return this.#rec.scheme + ":"; }
    set protocol(value) {
      P.basicParse(usv(value) + ":", null, this.#rec, S.SCHEME_START);
    }

    get username() { return this.#rec.username; }
    set username(value) {
      value = usv(value);
      if (cannotHaveCredentialsOrPort(this.#rec)) return;
      this.#rec.username = P.percentEncode(value, P.SETS.userinfo, false);
    }

    get password() { return this.#rec.password; }
    set password(value) {
      value = usv(value);
      if (cannotHaveCredentialsOrPort(this.#rec)) return;
      this.#rec.password = P.percentEncode(value, P.SETS.userinfo, false);
    }

    get host() {
      const rec = this.#rec;
      if (rec.host === null) return "";
      return rec.port === null ? rec.host : rec.host + ":" + rec.port;
    }
    set host(value) {
      value = usv(value);
      if (P.hasOpaquePath(this.#rec)) return;
      this.#setWith(value, S.HOST);
    }

    get hostname() { return this.#rec.host === null ? "" : this.#rec.host; }
    set hostname(value) {
      value = usv(value);
      if (P.hasOpaquePath(this.#rec)) return;
      this.#setWith(value, S.HOSTNAME);
    }

    get port() { return this.#rec.port === null ? "" : String(this.#rec.port); }
    set port(value) {
      value = usv(value);
      if (cannotHaveCredentialsOrPort(this.#rec)) return;
      if (value === "") this.#rec.port = null;
      else this.#setWith(value, S.PORT);
    }

    get pathname() { return P.serializePath(this.#rec); }
    set pathname(value) {
      value = usv(value);
      if (P.hasOpaquePath(this.#rec)) return;
      this.#rec.path = [];
      P.basicParse(value, null, this.#rec, S.PATH_START);
    }

    get search() {
      const q = this.#rec.query;
      return q === null || q === "" ? "" : "?" + q;
    }
    set search(value) {
      value = usv(value);
      if (value === "") {
        this.#rec.query = null;
        replaceParams(this.#params, []);
        return;
      }
      const input = value[0] === "?" ? value.slice(1) : value;
      this.#rec.query = "";
      P.basicParse(input, null, this.#rec, S.QUERY);
      this.#syncParams();
    }

    get searchParams() { return this.#params; }

    get hash() {
      const f = this.#rec.fragment;
      return f === null || f === "" ? "" : "#" + f;
    }
    set hash(value) {
      value = usv(value);
      if (value === "") {
        this.#rec.fragment = null;
        return;
      }
      const input = value[0] === "#" ? value.slice(1) : value;
      this.#rec.fragment = "";
      P.basicParse(input, null, this.#rec, S.FRAGMENT);
    }

    toString() { return P.serialize(this.#rec, false); }
    toJSON() { return P.serialize(this.#rec, false); }


    // A setter is the basic URL parser with a state override, in place: as the standard says, a
    // failure half-way (a bad port after a good host) keeps what was set before it.
    #setWith(value, state) {
      P.basicParse(value, null, this.#rec, state);
    }
  }

  // WebIDL attributes and operations are enumerable; the class string is a data property.
  for (const C of [URL, URLSearchParams]) {
    Object.defineProperty(C.prototype, Symbol.toStringTag, { value: C.name, configurable: true });
    for (const key of Object.getOwnPropertyNames(C.prototype)) {
      if (key === "constructor") continue;
      const d = Object.getOwnPropertyDescriptor(C.prototype, key);
      d.enumerable = true;
      Object.defineProperty(C.prototype, key, d);
    }
  }

  /* ---- node:url helpers ---- */

  function toURL(value, argName) {
    if (typeof value === "string") return new URL(value);
    if (value instanceof URL) return value;
    throw nodeError(TypeError, "ERR_INVALID_ARG_TYPE",
      `The "${argName}" argument must be of type string or an instance of URL`);
  }

  function fileURLToPath(path) {
    const url = toURL(path, "path");
    if (url.protocol !== "file:") throw nodeError(TypeError, "ERR_INVALID_URL_SCHEME", "The URL must be of scheme file");
    if (url.hostname !== "") {
      throw nodeError(TypeError, "ERR_INVALID_FILE_URL_HOST", 'File URL host must be "localhost" or empty on linux');
    }
    const pathname = url.pathname;
    for (let i = 0; i + 2 < pathname.length; i++) {
      if (pathname[i] === "%" && pathname[i + 1] === "2" && (pathname[i + 2] === "f" || pathname[i + 2] === "F")) {
        throw nodeError(TypeError, "ERR_INVALID_FILE_URL_PATH", "File URL path must not include encoded / characters");
      }
    }
    return decodeURIComponent(pathname);
  }

  // POSIX resolution against "/" (the run's working directory), keeping a trailing slash.
  function resolvePosix(path) {
    const out = [];
    const parts = path.split("/");
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i];
      if (p === "" || p === ".") continue;
      if (p === "..") out.pop();
      else out.push(p);
    }
    let r = "/" + out.join("/");
    if (path.endsWith("/") && r !== "/") r += "/";
    return r;
  }

  function pathToFileURL(path) {
    if (typeof path !== "string") {
      throw nodeError(TypeError, "ERR_INVALID_ARG_TYPE", 'The "path" argument must be of type string');
    }
    let resolved = resolvePosix(path);
    if ((path.endsWith("/") || path === "") && !resolved.endsWith("/")) resolved += "/";
    resolved = resolved.replace(/%/g, "%25").replace(/\\/g, "%5C").replace(/\n/g, "%0A")
      .replace(/\r/g, "%0D").replace(/\t/g, "%09");
    const url = new URL("file://");
    url.pathname = resolved;
    return url;
  }

  // Both run the host parser (so "0x7f.1" gives "127.0.0.1", as in Node); "" on failure.
  function domainToASCII(domain) {
    if (arguments.length < 1) throw missingArgs(["domain"]);
    domain = usv(domain);
    const r = domain === "" ? P.FAILURE : P.parseHost(domain, false);
    return r === P.FAILURE ? "" : r;
  }

  function domainToUnicode(domain) {
    if (arguments.length < 1) throw missingArgs(["domain"]);
    domain = usv(domain);
    const host = domain === "" ? P.FAILURE : P.parseHost(domain, false);
    if (host === P.FAILURE) return "";
    const r = host[0] === "[" ? host : idna.toUnicode(host);
    return r === null ? "" : r;
  }

  function urlToHttpOptions(url) {
    const hostname = url.hostname;
    const options = {
      __proto__: null,
      protocol: url.protocol,
      hostname: hostname.startsWith("[") ? hostname.slice(1, -1) : hostname,
      hash: url.hash,
      search: url.search,
      pathname: url.pathname,
      path: `${url.pathname || ""}${url.search || ""}`,
      href: url.href,
    };
    if (url.port !== "") options.port = Number(url.port);
    if (url.username || url.password) {
      options.auth = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
    }
    return options;
  }

  /* ---- the legacy API (approximate, see the header) ---- */

  const SLASHED = new Set(["http:", "https:", "ftp:", "gopher:", "file:", "ws:", "wss:"]);
  const HOSTLESS = new Set(["javascript:"]);
  // Characters the legacy parser escapes in paths, queries and hashes.
  const AUTO_ESCAPE = /[\t\n\r "'<>\\^`{|}]/g;
  const NON_HOST = /[\/?#%;\t\n\r "'<>\\^`{|}]/;
  const autoEscape = (s) => s.replace(AUTO_ESCAPE, (ch) => "%" + ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0"));

  function Url() {
    this.protocol = null;
    this.slashes = null;
    this.auth = null;
    this.host = null;
    this.port = null;
    this.hostname = null;
    this.hash = null;
    this.search = null;
    this.query = null;
    this.pathname = null;
    this.path = null;
    this.href = null;
  }

  function qsUnescape(s) {
    try {
      return decodeURIComponent(s);
    } catch (e) {
      return s;
    }
  }

  function qsParse(q) {
    const out = Object.create(null);
    if (q === "") return out;
    const parts = q.split("&");
    for (let i = 0; i < parts.length; i++) {
      if (parts[i] === "") continue;
      const eq = parts[i].indexOf("=");
      const k = qsUnescape((eq < 0 ? parts[i] : parts[i].slice(0, eq)).replace(/\+/g, " "));
      const v = qsUnescape((eq < 0 ? "" : parts[i].slice(eq + 1)).replace(/\+/g, " "));
      if (!(k in out)) out[k] = v;
      else if (Array.isArray(out[k])) out[k].push(v);
      else out[k] = [out[k], v];
    }
    return out;
  }

  function qsStringify(obj) {
    const parts = [];
    for (const k of Object.keys(obj)) {
      const v = obj[k];
      const values = Array.isArray(v) ? v : [v];
      for (const item of values) {
        const s = typeof item === "string" || typeof item === "number" || typeof item === "bigint" ||
          typeof item === "boolean" ? String(item) : "";
        parts.push(encodeURIComponent(k) + "=" + encodeURIComponent(s));
      }
    }
    return parts.join("&");
  }

  function legacyParse(input, parseQueryString, slashesDenoteHost) {
    if (input instanceof Url) return input;
    if (typeof input !== "string") {
      throw nodeError(TypeError, "ERR_INVALID_ARG_TYPE", 'The "url" argument must be of type string');
    }
    const u = new Url();
    let rest = input.trim();
    // Backslashes before the query become slashes, as Node does.
    const qPos = rest.search(/[?#]/);
    rest = qPos < 0 ? rest.replace(/\\/g, "/") : rest.slice(0, qPos).replace(/\\/g, "/") + rest.slice(qPos);

    const hashAt = rest.indexOf("#");
    if (hashAt >= 0) {
      u.hash = autoEscape(rest.slice(hashAt));
      rest = rest.slice(0, hashAt);
    }
    const searchAt = rest.indexOf("?");
    if (searchAt >= 0) {
      u.search = autoEscape(rest.slice(searchAt));
      u.query = u.search.slice(1);
      rest = rest.slice(0, searchAt);
    } else if (parseQueryString) {
      u.search = "";
      u.query = {};
    }
    if (parseQueryString && typeof u.query === "string") u.query = qsParse(u.query);

    const proto = /^[a-zA-Z0-9.+-]+:/.exec(rest);
    let protocol = null;
    if (proto) {
      protocol = proto[0].toLowerCase();
      u.protocol = protocol;
      rest = rest.slice(proto[0].length);
    }
    let slashes = false;
    if ((slashesDenoteHost || protocol) && rest.startsWith("//") && !(protocol && HOSTLESS.has(protocol))) {
      slashes = true;
      u.slashes = true;
      rest = rest.slice(2);
    }
    if (!(protocol && HOSTLESS.has(protocol)) && (slashes || (protocol && !SLASHED.has(protocol)))) {
      let hostEnd = rest.indexOf("/");
      if (hostEnd < 0) hostEnd = rest.length;
      const at = rest.lastIndexOf("@", hostEnd);
      if (at >= 0) {
        u.auth = qsUnescape(rest.slice(0, at));
        rest = rest.slice(at + 1);
      }
      // The host ends at the first character a host cannot hold (as in Node: "http://a b/c" has
      // host "a" and path " b/c"); what follows is the path.
      hostEnd = rest.search(NON_HOST);
      if (hostEnd < 0) hostEnd = rest.length;
      let host = rest.slice(0, hostEnd);
      rest = rest.slice(hostEnd);
      const portMatch = /:([0-9]*)$/.exec(host);
      if (portMatch) {
        if (portMatch[1] !== "") u.port = portMatch[1];
        host = host.slice(0, host.length - portMatch[0].length);
      }
      let hostname = host;
      const v6 = hostname.startsWith("[") && hostname.endsWith("]");
      if (v6) hostname = hostname.slice(1, -1);
      hostname = hostname.toLowerCase();
      if (!v6 && /[^\x00-\x7f]/.test(hostname)) {
        const a = P.domainToASCII(hostname, false);
        hostname = a === P.FAILURE ? "" : a;
      }
      u.hostname = hostname;
      u.host = (v6 ? "[" + hostname + "]" : hostname) + (u.port !== null ? ":" + u.port : "");
      if (SLASHED.has(protocol) && rest === "") rest = "/";
    }
    if (rest !== "") u.pathname = autoEscape(rest);
    else if (protocol && SLASHED.has(protocol) && u.hostname !== null) u.pathname = "/";
    if (u.pathname !== null || u.search !== null) u.path = (u.pathname || "") + (u.search || "");
    u.href = legacyFormat(u);
    return u;
  }

  function legacyFormat(obj) {
    let auth = obj.auth || "";
    if (auth) auth = encodeURIComponent(auth).replace(/%3A/i, ":") + "@";
    let protocol = obj.protocol || "";
    if (protocol && !protocol.endsWith(":")) protocol += ":";
    let pathname = obj.pathname || "";
    let hash = obj.hash || "";
    let host = false;
    if (obj.host) {
      host = auth + obj.host;
    } else if (obj.hostname) {
      const h = String(obj.hostname);
      host = auth + (h.includes(":") && !h.startsWith("[") ? "[" + h + "]" : h);
      if (obj.port) host += ":" + obj.port;
    }
    let query = "";
    if (obj.query !== null && typeof obj.query === "object") query = qsStringify(obj.query);
    let search = obj.search || (query && "?" + query) || "";
    pathname = pathname.replace(/[?#]/g, (c) => encodeURIComponent(c));
    search = search.replace(/#/g, "%23");
    // "//" only for slashes or a slashed scheme; a bare host is glued on ({host:"h",pathname:"x"}
    // is "hx" in Node), and file: without a host still gets "//".
    if ((obj.slashes || SLASHED.has(protocol)) && (obj.slashes || host)) {
      host = "//" + (host || "");
      if (pathname && pathname[0] !== "/") pathname = "/" + pathname;
    } else if (!host && protocol === "file:") {
      host = "//";
    } else if (!host) {
      host = "";
    }
    if (hash && hash[0] !== "#") hash = "#" + hash;
    if (search && search[0] !== "?") search = "?" + search;
    return protocol + host + pathname + search + hash;
  }

  Url.prototype.format = function () { return legacyFormat(this); };
  Url.prototype.resolve = function (relative) { return resolver().resolveObject(this, legacyParse(relative, false, true)).format(); };
  Url.prototype.resolveObject = function (relative) { return resolver().resolveObject(this, relative); };

  function format(urlObject, options = undefined) {
    if (urlObject instanceof URL) {
      const o = options || {};
      const auth = o.auth !== false, fragment = o.fragment !== false, search = o.search !== false;
      const unicode = o.unicode === true;
      let out = urlObject.protocol;
      const rec = urlRecord(urlObject);
      if (rec.host !== null) {
        out += "//";
        if (auth && (rec.username || rec.password)) {
          out += rec.username + (rec.password ? ":" + rec.password : "") + "@";
        }
        out += unicode ? domainToUnicode(rec.host) || rec.host : rec.host;
        if (rec.port !== null) out += ":" + rec.port;
      }
      out += urlObject.pathname;
      if (search) out += urlObject.search;
      if (fragment) out += urlObject.hash;
      return out;
    }
    if (typeof urlObject === "string") return legacyFormat(legacyParse(urlObject, false, false));
    if (urlObject === null || typeof urlObject !== "object") {
      throw nodeError(TypeError, "ERR_INVALID_ARG_TYPE", 'The "urlObject" argument must be one of type object or string');
    }
    return legacyFormat(urlObject);
  }

  // Legacy resolve over legacy Url objects, as Node (node/internal_url_resolve.js).
  let legacyResolver = null;
  const resolver = () => legacyResolver ||
    (legacyResolver = require("internal/url_resolve").make(Url, legacyParse, SLASHED, HOSTLESS));

  function resolve(from, to) {
    return resolver().resolve(from, to);
  }

  function resolveObject(from, to) {
    if (!from) return to;
    return resolver().resolveObject(legacyParse(from, false, true), to);
  }

  return Object.freeze({
    URL, URLSearchParams,
    fileURLToPath, pathToFileURL, urlToHttpOptions,
    domainToASCII, domainToUnicode,
    format, parse: legacyParse, resolve, resolveObject, Url,
  });
})
