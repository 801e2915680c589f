/* node/url.js — node:url, and the URL / URLSearchParams globals.
 *
 * URL and URLSearchParams follow the WHATWG URL Standard (the parser, hosts and serializer are in
 * internal/url, IDNA in internal/idna); a URL's searchParams is live-linked both ways. The Node
 * helpers: fileURLToPath / pathToFileURL (POSIX rules, or Windows rules with {windows: true}; a
 * relative path is resolved against "/", the working directory of a chidori run), format (a URL with Node's options, or a legacy object),
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
  // URL, URLSearchParams and the helpers above the legacy API use only builtins captured before
  // guest code ran (natives.primordials) and their own prototype-less lists: a guest that replaces
  // Array.prototype or String.prototype methods, Object/Reflect statics or the array iterator
  // changes nothing here (docs/primordials.md). A guest's own iterable or record given to
  // URLSearchParams is read as the guest made it. The legacy API (parse, format, resolve) is not
  // converted yet (docs/primordials.md, gaps).
  const Q = natives.primordials;
  const ReflectApply = Q.ReflectApply, list = Q.list, defineValue = Q.defineValue;
  const ObjectDefineProperty = Q.ObjectDefineProperty, ObjectFreeze = Q.ObjectFreeze;
  const ObjectSetPrototypeOf = Q.ObjectSetPrototypeOf, ObjectGetOwnPropertyNames = Q.ObjectGetOwnPropertyNames;
  const ObjectGetOwnPropertyDescriptor = Q.ObjectGetOwnPropertyDescriptor, ReflectOwnKeys = Q.ReflectOwnKeys;
  const ReflectGetOwnPropertyDescriptor = Q.ReflectGetOwnPropertyDescriptor, ArrayFrom = Q.ArrayFrom;
  const TypeErrorCtor = Q.TypeErrorCtor, ErrorCtor = Q.ErrorCtor, StringCtor = Q.StringCtor, NumberCtor = Q.NumberCtor;
  const SymbolIterator = Q.SymbolIterator, SymbolToStringTag = Q.SymbolToStringTag;
  const DecodeURIComponent = Q.DecodeURIComponent;
  const StringPrototypeToWellFormed = Q.StringPrototypeToWellFormed, StringPrototypeSlice = Q.StringPrototypeSlice;
  const StringPrototypeCharCodeAt = Q.StringPrototypeCharCodeAt, StringPrototypeIndexOf = Q.StringPrototypeIndexOf;
  const strSlice = Q.uncurryThis(StringPrototypeSlice);
  const charCodeAt = Q.uncurryThis(StringPrototypeCharCodeAt);
  const strIndexOf = (s, t, from) => ReflectApply(StringPrototypeIndexOf, s, [t, from]);
  const firstIs = (s, c) => s.length > 0 && charCodeAt(s, 0) === c;
  const endsWithSlash = (s) => s.length > 0 && charCodeAt(s, s.length - 1) === 0x2f;
  const pair = (a, b) => { const p = list(); p[0] = a; p[1] = b; return p; };

  function nodeError(Ctor, code, message, extra) {
    const err = new Ctor(message);
    defineValue(err, "code", code);
    if (extra) {
      const keys = Q.ObjectKeys(extra);
      for (let i = 0; i < keys.length; i++) defineValue(err, keys[i], extra[keys[i]]);
    }
    return err;
  }
  const invalidURL = (input, base) =>
    nodeError(TypeErrorCtor, "ERR_INVALID_URL", "Invalid URL",
      base === undefined ? { __proto__: null, input } : { __proto__: null, input, base });
  const missingArgs = (names) => nodeError(TypeErrorCtor, "ERR_MISSING_ARGS",
    names.length === 1 ? 'The "' + names[0] + '" argument must be specified'
      : 'The "' + names[0] + '" and "' + names[1] + '" arguments must be specified');

  // WebIDL USVString: String conversion (symbols throw), lone surrogates → U+FFFD.
  // (A template literal would call the live String.prototype.concat in this engine: never used here.)
  const toStr = (v) => {
    if (typeof v === "symbol") throw new TypeErrorCtor("Cannot convert a Symbol value to a string");
    return StringCtor(v);
  };
  const usv = (v) => ReflectApply(StringPrototypeToWellFormed, toStr(v), []);

  function parseRecord(input, base) {
    let baseRec = null;
    if (base !== undefined) {
      baseRec = P.basicParse(usv(base), null, null, 0);
      if (baseRec === P.FAILURE) return P.FAILURE;
    }
    return P.basicParse(usv(input), baseRec, null, 0);
  }

  // The pairs of `list` for which keep(pair, index) is true, as a new list.
  function filterPairs(from, keep) {
    const out = list();
    for (let i = 0; i < from.length; i++) if (keep(from[i], i)) out[out.length] = from[i];
    return out;
  }

  /* ---- URLSearchParams ---- */

  /* util.inspect of URLSearchParams and its iterators, in Node's layout: `URLSearchParams { 'a' =>
   * 'b' }` (one line while it fits options.breakLength, else one pair a line), `[Object]` below
   * depth 0, and `URLSearchParams Iterator { … }` listing what the iterator has yet to yield. */
  const inspectCustom = require("internal/captures_util").SymbolFor("nodejs.util.inspect.custom");
  const ObjectKeysOf = Q.ObjectKeys;
  function joinWith(parts, sep) {
    let s = "";
    for (let i = 0; i < parts.length; i++) s += (i === 0 ? "" : sep) + parts[i];
    return s;
  }
  function visibleLength(s) { // without the colour escapes (ESC [ digits m)
    let n = 0;
    for (let i = 0; i < s.length; i++) {
      if (charCodeAt(s, i) === 0x1b && i + 1 < s.length && charCodeAt(s, i + 1) === 0x5b) {
        let j = i + 2;
        while (j < s.length && charCodeAt(s, j) >= 0x30 && charCodeAt(s, j) <= 0x39) j++;
        if (j < s.length && charCodeAt(s, j) === 0x6d) { i = j; continue; }
      }
      n++;
    }
    return n;
  }
  function innerOptions(depth, options) {
    const o = { __proto__: null };
    if (options !== null && typeof options === "object") {
      const keys = ObjectKeysOf(options);
      for (let i = 0; i < keys.length; i++) o[keys[i]] = options[keys[i]];
    }
    if (typeof depth === "number") o.depth = depth - 1;
    return o;
  }

  let paramsList, linkParams, replaceParams, isParams;
  const invalidThis = (what) =>
    nodeError(TypeErrorCtor, "ERR_INVALID_THIS", 'Value of "this" must be of type ' + what);
  // Node's brand check, first thing in each method and getter: a receiver that is not one of ours
  // throws ERR_INVALID_THIS (before any argument check), not an engine error or a wrong answer.
  const checkParams = (p) => { if (!isParams(p)) throw invalidThis("URLSearchParams"); };
  const badTuple = () =>
    nodeError(TypeErrorCtor, "ERR_INVALID_TUPLE", "Each query pair must be an iterable [name, value] tuple");

  class URLSearchParams {
    #list = list();
    #url = null; // the owning URL, or null

    static {
      paramsList = (p) => p.#list;
      isParams = (p) => (typeof p === "object" && p !== null) && #list in p;
      linkParams = (p, url) => { p.#url = url; };
      replaceParams = (p, l) => { p.#list = l; };
    }

    constructor(init = undefined) {
      if (init === undefined || init === null) return;
      if (typeof init === "object" || typeof init === "function") {
        const iter = init[SymbolIterator];
        if (typeof iter === "function") {
          // the guest's iterable, iterated as the guest made it (WebIDL sequence conversion)
          const pairs = ArrayFrom(init);
          for (let i = 0; i < pairs.length; i++) {
            const p = pairs[i];
            if ((typeof p !== "object" && typeof p !== "function") || p === null ||
                typeof p[SymbolIterator] !== "function") throw badTuple();
            const items = ArrayFrom(p);
            if (items.length !== 2) throw badTuple();
            const l = this.#list;
            l[l.length] = pair(usv(items[0]), usv(items[1]));
          }
        } else if (iter !== undefined) {
          throw nodeError(TypeErrorCtor, "ERR_ARG_NOT_ITERABLE", "Query pairs must be iterable");
        } else {
          const keys = ReflectOwnKeys(init);
          for (let i = 0; i < keys.length; i++) {
            const k = keys[i]; // an enumerable Symbol key is refused by usv, as WebIDL's record<> does
            const d = ReflectGetOwnPropertyDescriptor(init, k);
            if (d && d.enumerable) {
              const l = this.#list;
              l[l.length] = pair(usv(k), usv(init[k]));
            }
          }
        }
        return;
      }
      let s = usv(init);
      if (firstIs(s, 0x3f)) s = strSlice(s, 1);
      this.#list = P.parseForm(s);
    }

    #update() {
      if (this.#url === null) return;
      const rec = urlRecord(this.#url);
      const q = P.serializeForm(this.#list);
      rec.query = q === "" ? null : q;
    }

    get size() { checkParams(this); return this.#list.length; }

    append(name, value) {
      checkParams(this);
      if (arguments.length < 2) throw missingArgs(["name", "value"]);
      const l = this.#list;
      l[l.length] = pair(usv(name), usv(value));
      this.#update();
    }

    delete(name, value = undefined) {
      checkParams(this);
      if (arguments.length < 1) throw missingArgs(["name"]);
      name = usv(name);
      const v = value === undefined ? undefined : usv(value);
      this.#list = filterPairs(this.#list, (p) => !(p[0] === name && (v === undefined || p[1] === v)));
      this.#update();
    }

    get(name) {
      checkParams(this);
      if (arguments.length < 1) throw missingArgs(["name"]);
      name = usv(name);
      const l = this.#list;
      for (let i = 0; i < l.length; i++) if (l[i][0] === name) return l[i][1];
      return null;
    }

    getAll(name) {
      checkParams(this);
      if (arguments.length < 1) throw missingArgs(["name"]);
      name = usv(name);
      const l = this.#list, out = [];
      // the array handed to the guest is filled by definition (no inherited setter runs)
      for (let i = 0; i < l.length; i++) if (l[i][0] === name) defineValue(out, out.length, l[i][1]);
      return out;
    }

    has(name, value = undefined) {
      checkParams(this);
      if (arguments.length < 1) throw missingArgs(["name"]);
      name = usv(name);
      const v = value === undefined ? undefined : usv(value);
      const l = this.#list;
      for (let i = 0; i < l.length; i++) if (l[i][0] === name && (v === undefined || l[i][1] === v)) return true;
      return false;
    }

    set(name, value) {
      checkParams(this);
      if (arguments.length < 2) throw missingArgs(["name", "value"]);
      name = usv(name);
      value = usv(value);
      const l = this.#list;
      let i = 0;
      while (i < l.length && l[i][0] !== name) i++;
      if (i === l.length) {
        l[l.length] = pair(name, value);
      } else {
        l[i][1] = value;
        this.#list = filterPairs(l, (p, j) => j <= i || p[0] !== name);
      }
      this.#update();
    }

    sort() {
      checkParams(this);
      // Stable insertion sort by UTF-16 code units of the names (the list is short; the live
      // Array.prototype.sort is not used).
      const l = this.#list;
      for (let i = 1; i < l.length; i++) {
        const p = l[i];
        let j = i - 1;
        while (j >= 0 && l[j][0] > p[0]) { l[j + 1] = l[j]; j--; }
        l[j + 1] = p;
      }
      this.#update();
    }

    forEach(callback, thisArg = undefined) {
      checkParams(this);
      if (typeof callback !== "function") {
        throw nodeError(TypeErrorCtor, "ERR_INVALID_ARG_TYPE", 'The "callback" argument must be of type function');
      }
      for (let i = 0; i < this.#list.length; i++) {
        const p = this.#list[i];
        ReflectApply(callback, thisArg, [p[1], p[0], this]);
      }
    }

    entries() { checkParams(this); return new ParamsIterator(this, "entries"); }
    keys() { checkParams(this); return new ParamsIterator(this, "keys"); }
    values() { checkParams(this); return new ParamsIterator(this, "values"); }

    toString() { checkParams(this); return P.serializeForm(this.#list); }

    [inspectCustom](depth, options, inspect) {
      checkParams(this);
      if (typeof depth === "number" && depth < 0) {
        return options && typeof options.stylize === "function" ? options.stylize("[Object]", "special") : "[Object]";
      }
      const inner = innerOptions(depth, options);
      const l = this.#list, out = list();
      let width = -2;
      for (let i = 0; i < l.length; i++) {
        const s = inspect(l[i][0], inner) + " => " + inspect(l[i][1], inner);
        out[out.length] = s;
        width += visibleLength(s) + 2;
      }
      const name = this.constructor.name;
      const breakLength = options && typeof options.breakLength === "number" ? options.breakLength : 128;
      if (width > breakLength) return name + " {\n  " + joinWith(out, ",\n  ") + " }";
      if (out.length > 0) return name + " { " + joinWith(out, ", ") + " }";
      return name + " {}";
    }

  }
  ObjectDefineProperty(URLSearchParams.prototype, SymbolIterator,
    { __proto__: null, value: URLSearchParams.prototype.entries, writable: true, enumerable: false, configurable: true });

  // The pair iterator: reads the live list by index, as WebIDL iterators do.
  class ParamsIterator {
    #params; #kind; #index = 0;
    constructor(params, kind) { this.#params = params; this.#kind = kind; }
    next() {
      if (typeof this !== "object" || this === null || !(#params in this)) throw invalidThis("URLSearchParamsIterator");
      const l = paramsList(this.#params);
      if (this.#index >= l.length) return { value: undefined, done: true };
      const p = l[this.#index++];
      let value;
      if (this.#kind === "keys") value = p[0];
      else if (this.#kind === "values") value = p[1];
      else { value = []; defineValue(value, 0, p[0]); defineValue(value, 1, p[1]); }
      return { value, done: false };
    }
    [inspectCustom](depth, options, inspect) {
      if (typeof this !== "object" || this === null || !(#params in this)) throw invalidThis("URLSearchParamsIterator");
      const inner = innerOptions(depth, options);
      const l = paramsList(this.#params), items = [], shown = list();
      for (let i = this.#index; i < l.length; i++) {
        let v;
        if (this.#kind === "keys") v = l[i][0];
        else if (this.#kind === "values") v = l[i][1];
        else { v = []; defineValue(v, 0, l[i][0]); defineValue(v, 1, l[i][1]); }
        defineValue(items, items.length, v);
        shown[shown.length] = inspect(v, inner);
      }
      const broken = strIndexOf(inspect(items, inner), "\n", 0) >= 0;
      return "URLSearchParams Iterator {" + (broken ? "\n  " + joinWith(shown, ",\n  ") : " " + joinWith(shown, ", ")) + " }";
    }
  }
  ObjectSetPrototypeOf(ParamsIterator.prototype, Q.IteratorPrototype);
  ObjectDefineProperty(ParamsIterator.prototype, SymbolToStringTag,
    { __proto__: null, value: "URLSearchParams Iterator", configurable: true });

  /* ---- URL ---- */

  let urlRecord;
  // The constructor's first argument when it is handed a parsed record: an object no guest holds.
  const FROM_RECORD = ObjectFreeze({ __proto__: null });

  const cannotHaveCredentialsOrPort = (rec) => rec.host === null || rec.host === "" || rec.scheme === "file";

  class URL {
    #rec;
    #params;

    static {
      urlRecord = (u) => u.#rec;
    }

    constructor(url, base = undefined) {
      if (url === FROM_RECORD) {
        this.#rec = base; // URL.parse and pathToFileURL: a record already parsed
      } else {
        if (arguments.length < 1) throw missingArgs(["url"]);
        const rec = parseRecord(url, base);
        if (rec === P.FAILURE) throw invalidURL(toStr(url), base === undefined ? undefined : toStr(base));
        this.#rec = rec;
      }
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
      // the constructor's steps, without a throw and catch
      const rec = parseRecord(url, base);
      return rec === P.FAILURE ? null : new URL(FROM_RECORD, rec);
    }

    static createObjectURL() {
      throw nodeError(ErrorCtor, "ERR_CHIDORI_UNAVAILABLE", "URL.createObjectURL is not available in chidori (there is no Blob store)");
    }

    // Nothing was ever registered (createObjectURL is unavailable), so revoking is a no-op, as
    // Node's is for a URL it does not know.
    static revokeObjectURL(url) {
      if (arguments.length < 1) throw missingArgs(["url"]);
    }

    #syncParams() {
      replaceParams(this.#params, this.#rec.query === null ? list() : P.parseForm(this.#rec.query));
    }

    // first, as in Node: a for-in over a URL lists toString, the attributes, then toJSON
    toString() { return P.serialize(this.#rec, false); }

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

    get host() { return hostOf(this.#rec); }
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

    get port() { return this.#rec.port === null ? "" : StringCtor(this.#rec.port); }
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
      this.#rec.path = list();
      P.basicParse(value, null, this.#rec, S.PATH_START);
    }

    get search() { return searchOf(this.#rec); }
    set search(value) {
      value = usv(value);
      if (value === "") {
        this.#rec.query = null;
        replaceParams(this.#params, list());
        return;
      }
      const input = firstIs(value, 0x3f) ? strSlice(value, 1) : value;
      this.#rec.query = "";
      P.basicParse(input, null, this.#rec, S.QUERY);
      this.#syncParams();
    }

    get searchParams() { return this.#params; }

    get hash() { return hashOf(this.#rec); }
    set hash(value) {
      value = usv(value);
      if (value === "") {
        this.#rec.fragment = null;
        return;
      }
      const input = firstIs(value, 0x23) ? strSlice(value, 1) : value;
      this.#rec.fragment = "";
      P.basicParse(input, null, this.#rec, S.FRAGMENT);
    }

    toJSON() { return P.serialize(this.#rec, false); }

    // util.inspect: `URL { href: …, …, hash: … }` in Node's order, named after the nearest
    // constructor on the prototype chain (a subclass shows its own name); below depth 0 the URL
    // itself goes back to inspect (which shows `URL {}` or `[URL]`). Read from the record, never
    // through the getters (a guest may replace them).
    [inspectCustom](depth, options, inspect) {
      const rec = recordOf(this);
      if (rec === null) throw invalidThis("URL");
      if (typeof depth === "number" && depth < 0) return this;
      const obj = {
        href: serializeRecord(rec), origin: P.origin(rec), protocol: rec.scheme + ":",
        username: rec.username, password: rec.password, host: hostOf(rec),
        hostname: rec.host === null ? "" : rec.host, port: rec.port === null ? "" : StringCtor(rec.port),
        pathname: P.serializePath(rec), search: searchOf(rec), searchParams: this.#params, hash: hashOf(rec),
      };
      return constructorNameOf(this, "URL") + " " + inspect(obj, innerOptions(undefined, options));
    }


    // A setter is the basic URL parser with a state override, in place: as the standard says, a
    // failure half-way (a bad port after a good host) keeps what was set before it.
    #setWith(value, state) {
      P.basicParse(value, null, this.#rec, state);
    }
  }

  // The name of the first constructor found as an own data property up the prototype chain (as
  // util.inspect names objects), else `fallback`; read through descriptors, so no getter runs.
  function constructorNameOf(obj, fallback) {
    for (let o = Q.ObjectGetPrototypeOf(obj); o !== null; o = Q.ObjectGetPrototypeOf(o)) {
      const d = ReflectGetOwnPropertyDescriptor(o, "constructor");
      if (d === undefined || !Q.ObjectHasOwn(d, "value")) continue;
      const ctor = d.value;
      if (typeof ctor !== "function") continue;
      const n = ReflectGetOwnPropertyDescriptor(ctor, "name");
      if (n !== undefined && Q.ObjectHasOwn(n, "value") && typeof n.value === "string" && n.value !== "") return n.value;
    }
    return fallback;
  }
  const serializeRecord = (rec) => P.serialize(rec, false);
  const hostOf = (rec) => (rec.host === null ? "" : rec.port === null ? rec.host : rec.host + ":" + rec.port);
  const searchOf = (rec) => (rec.query === null || rec.query === "" ? "" : "?" + rec.query);
  const hashOf = (rec) => (rec.fragment === null || rec.fragment === "" ? "" : "#" + rec.fragment);
  // The record of a URL of ours, or null for anything else (a guest object with URL's shape).
  const recordOf = (value) => { try { return urlRecord(value); } catch (_) { return null; } };

  // WebIDL attributes and operations are enumerable; the class string is a data property.
  const CLASSES = list();
  CLASSES[0] = URL;
  CLASSES[1] = URLSearchParams;
  for (let c = 0; c < CLASSES.length; c++) {
    const C = CLASSES[c];
    ObjectDefineProperty(C.prototype, SymbolToStringTag, { __proto__: null, value: C.name, configurable: true });
    const keys = ObjectGetOwnPropertyNames(C.prototype);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      if (key === "constructor") continue;
      const d = ObjectGetOwnPropertyDescriptor(C.prototype, key);
      ObjectSetPrototypeOf(d, null);
      d.enumerable = true;
      ObjectDefineProperty(C.prototype, key, d);
    }
  }
  // URL's static operations are enumerable too (WebIDL; Node's are)
  const STATICS = list();
  STATICS[0] = "parse"; STATICS[1] = "canParse"; STATICS[2] = "createObjectURL"; STATICS[3] = "revokeObjectURL";
  for (let i = 0; i < STATICS.length; i++) {
    const d = ObjectGetOwnPropertyDescriptor(URL, STATICS[i]);
    ObjectSetPrototypeOf(d, null);
    d.enumerable = true;
    ObjectDefineProperty(URL, STATICS[i], d);
  }

  /* ---- node:url helpers ---- */

  // The " Received ..." tail of Node's ERR_INVALID_ARG_TYPE for a primitive (an object or a
  // function is described by internal/text through util.inspect, loaded only then).
  function received(value) {
    switch (typeof value) {
      case "undefined": return " Received undefined";
      case "string": {
        const shown = "'" + value + "'";
        return " Received type string (" + (shown.length > 28 ? strSlice(shown, 0, 25) + "..." : shown) + ")";
      }
      case "number": case "boolean":
        return " Received type " + typeof value + " (" + (value === 0 && 1 / value < 0 ? "-0" : StringCtor(value)) + ")";
      case "bigint": return " Received type bigint (" + StringCtor(value) + "n)";
      default:
        if (value === null) return " Received null";
        return require("internal/text").describeReceived(value);
    }
  }
  const invalidArgType = (argName, expected, value) => nodeError(TypeErrorCtor, "ERR_INVALID_ARG_TYPE",
    'The "' + argName + '" argument must be ' + expected + "." + received(value));
  // options?.windows, as Node reads it (false: a run's paths are POSIX)
  const windowsOption = (options) => options !== null && options !== undefined && options.windows === true;

  // The record of a string or of a URL of ours. A URL is read through its record, never through
  // URL.prototype's getters (a guest may replace them).
  function toRecord(value, argName) {
    if (typeof value === "string") {
      const rec = parseRecord(value, undefined);
      if (rec === P.FAILURE) throw invalidURL(value);
      return rec;
    }
    const rec = recordOf(value);
    if (rec !== null) return rec;
    throw invalidArgType(argName, "of type string or an instance of URL", value);
  }

  // "%2f" (and, on Windows, "%5c") in any case: an encoded separator
  function hasEncodedSeparator(pathname, windows) {
    for (let i = 0; i + 2 < pathname.length; i++) {
      if (pathname[i] !== "%") continue;
      const a = pathname[i + 1], b = pathname[i + 2];
      if ((a === "2" && (b === "f" || b === "F")) || (windows && a === "5" && (b === "c" || b === "C"))) return true;
    }
    return false;
  }

  function fileURLToPath(path, options = undefined) {
    const windows = windowsOption(options);
    const rec = toRecord(path, "path");
    if (rec.scheme !== "file") throw nodeError(TypeErrorCtor, "ERR_INVALID_URL_SCHEME", "The URL must be of scheme file");
    const pathname = P.serializePath(rec);
    if (windows) {
      if (hasEncodedSeparator(pathname, true)) {
        throw nodeError(TypeErrorCtor, "ERR_INVALID_FILE_URL_PATH",
          "File URL path must not include encoded \\ or / characters");
      }
      let back = "";
      for (let i = 0; i < pathname.length; i++) back += pathname[i] === "/" ? "\\" : pathname[i];
      const decoded = DecodeURIComponent(back);
      if (rec.host !== null && rec.host !== "") return "\\\\" + domainToUnicode(rec.host) + decoded;
      const letter = decoded.length > 2 ? charCodeAt(decoded, 1) | 0x20 : 0;
      if (letter < 0x61 || letter > 0x7a || decoded[2] !== ":") {
        throw nodeError(TypeErrorCtor, "ERR_INVALID_FILE_URL_PATH", "File URL path must be absolute");
      }
      return strSlice(decoded, 1);
    }
    if (rec.host !== null && rec.host !== "") {
      throw nodeError(TypeErrorCtor, "ERR_INVALID_FILE_URL_HOST", 'File URL host must be "localhost" or empty on linux');
    }
    if (hasEncodedSeparator(pathname, false)) {
      throw nodeError(TypeErrorCtor, "ERR_INVALID_FILE_URL_PATH", "File URL path must not include encoded / characters");
    }
    return DecodeURIComponent(pathname);
  }

  // POSIX resolution against "/" (the run's working directory), keeping a trailing slash.
  function resolvePosix(path) {
    const out = list();
    let start = 0;
    for (let i = 0; i <= path.length; i++) {
      if (i < path.length && charCodeAt(path, i) !== 0x2f) continue;
      const p = strSlice(path, start, i);
      start = i + 1;
      if (p === "" || p === ".") continue;
      if (p === "..") { if (out.length > 0) out.length--; }
      else out[out.length] = p;
    }
    let r = "";
    for (let i = 0; i < out.length; i++) r += "/" + out[i];
    if (r === "") r = "/";
    if (endsWithSlash(path) && r !== "/") r += "/";
    return r;
  }

  // % (and, for POSIX paths, \), newline, carriage return and tab escaped, as Node's
  // pathToFileURL does; with `all`, ? and # too
  function escapePathChars(s, windows, all) {
    let out = "";
    for (let i = 0; i < s.length; i++) {
      const c = charCodeAt(s, i);
      out += c === 0x25 ? "%25" : c === 0x5c && !windows ? "%5C" : c === 0x0a ? "%0A" : c === 0x0d ? "%0D"
        : c === 0x09 ? "%09" : all && c === 0x3f ? "%3F" : all && c === 0x23 ? "%23"
        : windows && c === 0x5e ? "%5E" : windows && c === 0x5b ? "%5B" : windows && c === 0x5d ? "%5D"
        : windows && c === 0x7c ? "%7C" : windows && c === 0x7e ? "%7E" : s[i];
    }
    return out;
  }

  // util.inspect's form of a string without a single quote: quoted, backslashes doubled
  function quoted(s) {
    let out = "'";
    for (let i = 0; i < s.length; i++) out += s[i] === "\\" ? "\\\\" : s[i];
    return out + "'";
  }
  const invalidArgValue = (argName, value, reason) => nodeError(TypeErrorCtor, "ERR_INVALID_ARG_VALUE",
    "The argument '" + argName + "' " + reason + ". Received " + quoted(value));

  function pathToFileURL(path, options = undefined) {
    if (typeof path !== "string") throw invalidArgType("path", "of type string", path);
    const windows = windowsOption(options);
    if (windows) {
      let rec;
      if (strSlice(path, 0, 2) === "\\\\") {
        // UNC: \\server\share\resource, or \\?\UNC\server\share\resource
        const prefix = strSlice(path, 0, 8) === "\\\\?\\UNC\\" ? 8 : 2;
        const hostEnd = strIndexOf(path, "\\", prefix);
        if (hostEnd === -1) throw invalidArgValue("path", path, "Missing UNC resource path");
        if (hostEnd === 2) throw invalidArgValue("path", path, "Empty UNC servername");
        rec = P.basicParse(usv("file://" + strSlice(path, prefix, hostEnd) + escapePathChars(strSlice(path, hostEnd), true, true)),
          null, null, 0);
      } else {
        let resolved = winPath().resolve(path);
        const last = path.length > 0 ? path[path.length - 1] : "";
        if ((last === "/" || last === "\\") && resolved[resolved.length - 1] !== "\\") resolved += "\\";
        rec = P.basicParse(usv("file://" + escapePathChars(resolved, true, true)), null, null, 0);
      }
      if (rec === P.FAILURE) throw invalidURL(path);
      return new URL(FROM_RECORD, rec);
    }
    let resolved = resolvePosix(path);
    if ((endsWithSlash(path) || path === "") && !endsWithSlash(resolved)) resolved += "/";
    resolved = escapePathChars(usv(resolved), false, false);
    const rec = P.basicParse("file://", null, null, 0);
    rec.path = list();
    P.basicParse(resolved, null, rec, S.PATH_START);
    return new URL(FROM_RECORD, rec);
  }
  let winPathModule = null;
  const winPath = () => winPathModule || (winPathModule = require("path").win32);

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
    const r = firstIs(host, 0x5b) ? host : idna.toUnicode(host);
    return r === null ? "" : r;
  }

  function urlToHttpOptions(url) {
    // a URL of ours is read through its record; anything else (a guest's look-alike) as given
    const rec = recordOf(url);
    const hostname = rec !== null ? (rec.host === null ? "" : rec.host) : url.hostname;
    const pathname = rec !== null ? P.serializePath(rec) : url.pathname;
    const search = rec !== null ? searchOf(rec) : url.search;
    const port = rec !== null ? (rec.port === null ? "" : StringCtor(rec.port)) : url.port;
    const username = rec !== null ? rec.username : url.username;
    const password = rec !== null ? rec.password : url.password;
    const options = {
      __proto__: null,
      protocol: rec !== null ? rec.scheme + ":" : url.protocol,
      hostname: typeof hostname === "string" && firstIs(hostname, 0x5b) ? strSlice(hostname, 1, -1) : hostname,
      hash: rec !== null ? hashOf(rec) : url.hash,
      search,
      pathname,
      path: toStr(pathname || "") + toStr(search || ""),
      href: rec !== null ? serializeRecord(rec) : url.href,
    };
    if (port !== "") options.port = NumberCtor(port);
    if (username || password) {
      options.auth = DecodeURIComponent(username) + ":" + DecodeURIComponent(password);
    }
    return options;
  }

  /* ---- the legacy API (approximate, see the header) ---- */

  const StringPrototypeLastIndexOf = Q.StringPrototypeLastIndexOf, StringPrototypeToLowerCase = Q.StringPrototypeToLowerCase;
  const StringPrototypeToUpperCase = Q.StringPrototypeToUpperCase, StringPrototypeTrim = Q.StringPrototypeTrim;
  const StringPrototypeEndsWith = Q.StringPrototypeEndsWith, StringPrototypeStartsWith = Q.StringPrototypeStartsWith;
  const StringPrototypeIncludes = Q.StringPrototypeIncludes, NumberPrototypeToString = Q.NumberPrototypeToString;
  const EncodeURIComponent = Q.EncodeURIComponent, ArrayIsArray = Q.ArrayIsArray, ObjectKeys = Q.ObjectKeys;
  const lower = (s) => ReflectApply(StringPrototypeToLowerCase, s, []);
  const startsWith = (s, t) => ReflectApply(StringPrototypeStartsWith, s, [t]);
  const endsWith = (s, t) => ReflectApply(StringPrototypeEndsWith, s, [t]);

  const SLASHED = { __proto__: null, "http:": true, "https:": true, "ftp:": true, "gopher:": true, "file:": true,
    "ws:": true, "wss:": true };
  const isSlashed = (p) => typeof p === "string" && SLASHED[p] === true;
  const isHostless = (p) => p === "javascript:";
  // Characters the legacy parser escapes in paths, queries and hashes, and those a host cannot hold.
  const isAutoEscaped = (c) => c === 0x09 || c === 0x0a || c === 0x0d || c === 0x20 || c === 0x22 || c === 0x27 ||
    c === 0x3c || c === 0x3e || c === 0x5c || c === 0x5e || c === 0x60 || c === 0x7b || c === 0x7c || c === 0x7d;
  const isNonHost = (c) => isAutoEscaped(c) || c === 0x2f || c === 0x3f || c === 0x23 || c === 0x25 || c === 0x3b;
  function autoEscape(s) {
    let out = "";
    for (let i = 0; i < s.length; i++) {
      const c = charCodeAt(s, i);
      if (!isAutoEscaped(c)) { out += s[i]; continue; }
      const h = ReflectApply(StringPrototypeToUpperCase, ReflectApply(NumberPrototypeToString, c, [16]), []);
      out += (h.length < 2 ? "%0" : "%") + h;
    }
    return out;
  }
  // the first index of a character for which test(c) holds, or -1
  function search(s, test) {
    for (let i = 0; i < s.length; i++) if (test(charCodeAt(s, i))) return i;
    return -1;
  }
  // every "\" as "/"
  function backslashesToSlashes(s) {
    if (strIndexOf(s, "\\", 0) < 0) return s;
    let out = "";
    for (let i = 0; i < s.length; i++) out += s[i] === "\\" ? "/" : s[i];
    return out;
  }
  // the length of a leading scheme and its ":" ([a-zA-Z0-9.+-]+:), or 0
  function schemeLength(s) {
    let i = 0;
    for (; i < s.length; i++) {
      const c = charCodeAt(s, i);
      if (!((c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x2e ||
        c === 0x2b || c === 0x2d)) break;
    }
    return i > 0 && i < s.length && charCodeAt(s, i) === 0x3a ? i + 1 : 0;
  }

  function Url() {
    // defined, not assigned: no setter a guest put on Object.prototype runs
    const fields = URL_FIELDS;
    for (let i = 0; i < fields.length; i++) defineValue(this, fields[i], null);
  }
  const URL_FIELDS = list();
  {
    const names = "protocol slashes auth host port hostname hash search query pathname path href";
    let start = 0;
    for (let i = 0; i <= names.length; i++) {
      if (i < names.length && names[i] !== " ") continue;
      URL_FIELDS[URL_FIELDS.length] = strSlice(names, start, i);
      start = i + 1;
    }
  }

  const isForbiddenInV6 = (c) => c === 0 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x20 || c === 0x23 ||
    c === 0x25 || c === 0x2f || c === 0x3c || c === 0x3e || c === 0x3f || c === 0x40 || c === 0x5c || c === 0x5e ||
    c === 0x7c;

  function qsUnescape(s) {
    try {
      return DecodeURIComponent(s);
    } catch (e) {
      return s;
    }
  }
  // every "+" as " "
  function plusToSpace(s) {
    if (strIndexOf(s, "+", 0) < 0) return s;
    let out = "";
    for (let i = 0; i < s.length; i++) out += s[i] === "+" ? " " : s[i];
    return out;
  }

  function qsParse(q) {
    const out = Q.ObjectCreate(null);
    if (q === "") return out;
    let start = 0;
    for (let end = 0; end <= q.length; end++) {
      if (end < q.length && q[end] !== "&") continue;
      const part = strSlice(q, start, end);
      start = end + 1;
      if (part === "") continue;
      const eq = strIndexOf(part, "=", 0);
      const k = qsUnescape(plusToSpace(eq < 0 ? part : strSlice(part, 0, eq)));
      const v = qsUnescape(plusToSpace(eq < 0 ? "" : strSlice(part, eq + 1)));
      if (!(k in out)) out[k] = v;
      else if (ArrayIsArray(out[k])) defineValue(out[k], out[k].length, v);
      else out[k] = [out[k], v];
    }
    return out;
  }

  function qsStringify(obj) {
    let out = "";
    const keys = ObjectKeys(obj);
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i];
      const v = obj[k];
      const one = !ArrayIsArray(v);
      const n = one ? 1 : v.length;
      for (let j = 0; j < n; j++) {
        const item = one ? v : v[j];
        const s = typeof item === "string" || typeof item === "number" || typeof item === "bigint" ||
          typeof item === "boolean" ? StringCtor(item) : "";
        out += (out === "" ? "" : "&") + EncodeURIComponent(k) + "=" + EncodeURIComponent(s);
      }
    }
    return out;
  }

  function legacyParse(input, parseQueryString, slashesDenoteHost) {
    if (input instanceof Url) return input;
    if (typeof input !== "string") throw invalidArgType("url", "of type string", input);
    const u = new Url();
    let rest = ReflectApply(StringPrototypeTrim, input, []);
    // Backslashes before the query become slashes, as Node does.
    const qPos = search(rest, (c) => c === 0x3f || c === 0x23);
    rest = qPos < 0 ? backslashesToSlashes(rest) : backslashesToSlashes(strSlice(rest, 0, qPos)) + strSlice(rest, qPos);

    const hashAt = strIndexOf(rest, "#", 0);
    if (hashAt >= 0) {
      u.hash = autoEscape(strSlice(rest, hashAt));
      rest = strSlice(rest, 0, hashAt);
    }
    const searchAt = strIndexOf(rest, "?", 0);
    if (searchAt >= 0) {
      u.search = autoEscape(strSlice(rest, searchAt));
      u.query = strSlice(u.search, 1);
      rest = strSlice(rest, 0, searchAt);
    } else if (parseQueryString) {
      u.search = "";
      u.query = {};
    }
    if (parseQueryString && typeof u.query === "string") u.query = qsParse(u.query);

    const schemeLen = schemeLength(rest);
    let protocol = null;
    if (schemeLen > 0) {
      protocol = lower(strSlice(rest, 0, schemeLen));
      u.protocol = protocol;
      rest = strSlice(rest, schemeLen);
    }
    let slashes = false;
    if ((slashesDenoteHost || protocol) && startsWith(rest, "//") && !(protocol && isHostless(protocol))) {
      slashes = true;
      u.slashes = true;
      rest = strSlice(rest, 2);
    }
    if (!(protocol && isHostless(protocol)) && (slashes || (protocol && !isSlashed(protocol)))) {
      let hostEnd = strIndexOf(rest, "/", 0);
      if (hostEnd < 0) hostEnd = rest.length;
      const at = ReflectApply(StringPrototypeLastIndexOf, rest, ["@", hostEnd]);
      if (at >= 0) {
        u.auth = DecodeURIComponent(strSlice(rest, 0, at)); // a URIError on a bad escape, as in Node
        rest = strSlice(rest, at + 1);
      }
      // The host ends at the first character a host cannot hold (as in Node: "http://a b/c" has
      // host "a" and path " b/c"); what follows is the path.
      hostEnd = search(rest, isNonHost);
      if (hostEnd < 0) hostEnd = rest.length;
      let host = strSlice(rest, 0, hostEnd);
      rest = strSlice(rest, hostEnd);
      // a trailing ":" and digits is the port
      let portAt = host.length;
      while (portAt > 0 && charCodeAt(host, portAt - 1) >= 0x30 && charCodeAt(host, portAt - 1) <= 0x39) portAt--;
      if (portAt > 0 && charCodeAt(host, portAt - 1) === 0x3a) {
        if (portAt < host.length) u.port = strSlice(host, portAt);
        host = strSlice(host, 0, portAt - 1);
      }
      let hostname = host;
      const v6 = startsWith(hostname, "[") && endsWith(hostname, "]");
      if (v6) hostname = strSlice(hostname, 1, -1);
      hostname = lower(hostname);
      // as Node: a host that cannot be a host name (a bad IDNA label, a forbidden code point) is
      // an ERR_INVALID_URL, not an empty host
      if (hostname !== "") {
        if (v6) {
          if (search(hostname, isForbiddenInV6) >= 0) throw invalidURL(input);
        } else if (search(hostname, (c) => c > 0x7f) >= 0) {
          const a = P.domainToASCII(hostname, false);
          if (a === P.FAILURE) throw invalidURL(input);
          hostname = a;
        }
      }
      u.hostname = hostname;
      u.host = (v6 ? "[" + hostname + "]" : hostname) + (u.port !== null ? ":" + u.port : "");
      if (isSlashed(protocol) && rest === "") rest = "/";
    }
    if (rest !== "") u.pathname = autoEscape(rest);
    else if (protocol && isSlashed(protocol) && u.hostname !== null) u.pathname = "/";
    if (u.pathname !== null || u.search !== null) u.path = (u.pathname || "") + (u.search || "");
    u.href = legacyFormat(u);
    return u;
  }

  function legacyFormat(obj) {
    let auth = obj.auth || "";
    if (auth) {
      // encodeURIComponent writes ":" as "%3A"; the first one stays a ":"
      auth = EncodeURIComponent(auth);
      const colon = strIndexOf(auth, "%3A", 0);
      if (colon >= 0) auth = strSlice(auth, 0, colon) + ":" + strSlice(auth, colon + 3);
      auth += "@";
    }
    let protocol = obj.protocol || "";
    if (protocol && !endsWith(protocol, ":")) protocol += ":";
    let pathname = obj.pathname || "";
    let hash = obj.hash || "";
    let host = false;
    if (obj.host) {
      host = auth + obj.host;
    } else if (obj.hostname) {
      const h = StringCtor(obj.hostname);
      host = auth + (ReflectApply(StringPrototypeIncludes, h, [":"]) && !startsWith(h, "[") ? "[" + h + "]" : h);
      if (obj.port) host += ":" + obj.port;
    }
    let query = "";
    if (obj.query !== null && typeof obj.query === "object") query = qsStringify(obj.query);
    let search = obj.search || (query && "?" + query) || "";
    pathname = StringCtor(pathname);
    search = StringCtor(search);
    {
      let p = "";
      for (let i = 0; i < pathname.length; i++) p += pathname[i] === "?" ? "%3F" : pathname[i] === "#" ? "%23" : pathname[i];
      pathname = p;
      let q = "";
      for (let i = 0; i < search.length; i++) q += search[i] === "#" ? "%23" : search[i];
      search = q;
    }
    // "//" only for slashes or a slashed scheme; a bare host is glued on ({host:"h",pathname:"x"}
    // is "hx" in Node), and file: without a host still gets "//".
    if ((obj.slashes || isSlashed(protocol)) && (obj.slashes || host)) {
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

  defineValue(Url.prototype, "format", function format() { return legacyFormat(this); });
  defineValue(Url.prototype, "resolve", function resolve(relative) {
    return legacyFormat(resolver().resolveObject(this, legacyParse(relative, false, true)));
  });
  defineValue(Url.prototype, "resolveObject", function resolveObject(relative) {
    return resolver().resolveObject(this, relative);
  });

  function format(urlObject, options = undefined) {
    const rec = recordOf(urlObject);
    if (rec !== null) {
      if (options && typeof options !== "object") throw invalidArgType("options", "of type object", options);
      const o = options || { __proto__: null };
      // an option given (not null or undefined) counts by its truth, as in Node
      const flag = (v, dflt) => (v === null || v === undefined ? dflt : !!v);
      const auth = flag(o.auth, true), fragment = flag(o.fragment, true), search = flag(o.search, true);
      const unicode = flag(o.unicode, false);
      let out = rec.scheme + ":";
      if (rec.host !== null) {
        out += "//";
        if (auth && (rec.username || rec.password)) {
          out += rec.username + (rec.password ? ":" + rec.password : "") + "@";
        }
        out += unicode ? domainToUnicode(rec.host) || rec.host : rec.host;
        if (rec.port !== null) out += ":" + rec.port;
      }
      out += P.serializePath(rec);
      if (search) out += searchOf(rec);
      if (fragment) out += hashOf(rec);
      return out;
    }
    if (typeof urlObject === "string") return legacyFormat(legacyParse(urlObject, false, false));
    if (urlObject === null || typeof urlObject !== "object") {
      throw nodeError(TypeErrorCtor, "ERR_INVALID_ARG_TYPE", 'The "urlObject" argument must be one of type object or string');
    }
    return legacyFormat(urlObject);
  }

  // Legacy resolve over legacy Url objects, as Node (node/internal_url_resolve.js).
  let legacyResolver = null;
  const resolver = () => legacyResolver ||
    (legacyResolver = require("internal/url_resolve").make(Url, legacyParse, isSlashed, isHostless, legacyFormat));

  function resolve(from, to) {
    return resolver().resolve(from, to);
  }

  function resolveObject(from, to) {
    if (!from) return to;
    return resolver().resolveObject(legacyParse(from, false, true), to);
  }

  return ObjectFreeze({
    URL, URLSearchParams,
    fileURLToPath, pathToFileURL, urlToHttpOptions,
    domainToASCII, domainToUnicode,
    format, parse: legacyParse, resolve, resolveObject, Url,
  });
})
