/* node/querystring.js — node:querystring: the legacy form-encoding helpers (parse/decode,
 * stringify/encode, escape, unescape, unescapeBuffer) with Node's observable quirks: results with
 * a null prototype, repeated keys collected into arrays, maxKeys counted over fragments,
 * malformed escapes kept as written, and `escape`/`unescape` looked up on the module at call time
 * so code that replaces them is honoured.
 *
 * Pure string computation over guest values; trusts nothing it is given. */
(function (require, natives, name) {
  "use strict";
  const { codedError } = require("internal/captures_util");
  const { Buffer } = require("buffer");
  // builtins captured before guest code (primordials.js, internal/captures_util); the Buffer that
  // unescapeBuffer returns is node:buffer's (its own methods are that module's)
  const C = require("internal/captures_util");
  const u = C.uncurryThis;
  const { ObjectKeys, ObjectCreate, ArrayIsArray, StringCtor, NumberIsFinite, EncodeURIComponent, DecodeURIComponent } = C;
  const StringCharCodeAt = u(C.StringPrototypeCharCodeAt), StringIndexOf = u(C.StringPrototypeIndexOf);
  const StringSlice = u(C.StringPrototypeSlice), RegExpExec = u(C.RegExpPrototypeExec);
  const BufferPrototype = Buffer.prototype, BufferToString = BufferPrototype.toString;
  const { decode } = require("internal/decode");

  function hexValue(c) {
    if (c >= 48 && c <= 57) return c - 48;
    if (c >= 65 && c <= 70) return c - 55;
    if (c >= 97 && c <= 102) return c - 87;
    return -1;
  }

  // Bytes of `s` with valid %XX escapes decoded (and '+' as a space when asked); other characters
  // keep their low byte, as Node's version does. An internal byte array and its used length.
  function unescapeBytes(s, decodeSpaces) {
    s = StringCtor(s);
    const out = new C.Uint8ArrayCtor(s.length);
    let n = 0;
    for (let i = 0; i < s.length; i++) {
      const c = StringCharCodeAt(s, i);
      if (c === 37 && i + 2 < s.length) {
        const hi = hexValue(StringCharCodeAt(s, i + 1)), lo = hexValue(StringCharCodeAt(s, i + 2));
        if (hi >= 0 && lo >= 0) { out[n++] = hi * 16 + lo; i += 2; continue; }
      }
      out[n++] = c === 43 && decodeSpaces ? 32 : c & 0xff;
    }
    return { __proto__: null, bytes: out, n };
  }

  function unescapeBuffer(s, decodeSpaces) {
    const r = unescapeBytes(s, decodeSpaces);
    // a Buffer as node:buffer makes one (a Uint8Array with Buffer.prototype)
    const out = C.ObjectSetPrototypeOf(new C.Uint8ArrayCtor(r.n), BufferPrototype);
    for (let i = 0; i < r.n; i++) out[i] = r.bytes[i];
    return out;
  }

  // The default unescape: decodeURIComponent, or, where that throws, the bytes as UTF-8 (the
  // module's unescapeBuffer when a guest replaced it, as Node looks it up)
  function qsUnescape(s, decodeSpaces) {
    try { return DecodeURIComponent(s); } catch (_) { /* malformed: bytes as UTF-8 below */ }
    if (api.unescapeBuffer !== unescapeBuffer) return C.ReflectApply(BufferToString, api.unescapeBuffer(s, decodeSpaces), []);
    const r = unescapeBytes(s, decodeSpaces);
    return decode(r.bytes, "utf8", 0, r.n);
  }

  // encodeURIComponent leaves exactly the characters Node's table leaves alone.
  function qsEscape(str) {
    if (typeof str !== "string") str = typeof str === "object" ? StringCtor(str) : str + "";
    try { return EncodeURIComponent(str); } catch (_) { return escapeLoneSurrogates(str); }
  }

  const HEX = "0123456789ABCDEF";
  const pctByte = (b) => "%" + HEX[b >> 4] + HEX[b & 15];
  // Node's escape where encodeURIComponent refuses (a lone surrogate): a surrogate code unit takes
  // the next code unit as its low half whatever it is ("\uD801t" is one 4-byte character); one at
  // the very end is URI malformed.
  function escapeLoneSurrogates(str) {
    let out = "", last = 0;
    for (let i = 0; i < str.length; i++) {
      const c = StringCharCodeAt(str, i);
      if (c < 0xD800 || c >= 0xE000) continue;
      if (i + 1 >= str.length) throw codedError(C.URIErrorCtor, "ERR_INVALID_URI", "URI malformed");
      const cp = 0x10000 + (((c & 0x3FF) << 10) | (StringCharCodeAt(str, i + 1) & 0x3FF));
      out += EncodeURIComponent(StringSlice(str, last, i)) + pctByte(0xF0 | (cp >> 18)) +
        pctByte(0x80 | ((cp >> 12) & 0x3F)) + pctByte(0x80 | ((cp >> 6) & 0x3F)) + pctByte(0x80 | (cp & 0x3F));
      i++;
      last = i + 1;
    }
    return out + EncodeURIComponent(StringSlice(str, last));
  }

  function primitiveText(v) {
    if (typeof v === "string") return v;
    if (typeof v === "number") return NumberIsFinite(v) ? "" + v : "";
    if (typeof v === "bigint") return "" + v;
    if (typeof v === "boolean") return v ? "true" : "false";
    return "";
  }

  function stringify(obj, sep, eq, options) {
    sep = sep || "&";
    eq = eq || "=";
    let encode = api.escape;
    if (options && typeof options.encodeURIComponent === "function") encode = options.encodeURIComponent;
    const convert = (v) => encode(primitiveText(v));
    if (obj === null || typeof obj !== "object") return "";
    const keys = ObjectKeys(obj);
    let fields = "";
    for (let i = 0; i < keys.length; i++) {
      const v = obj[keys[i]];
      const ks = convert(keys[i]) + eq;
      if (ArrayIsArray(v)) {
        if (v.length === 0) continue;
        if (fields) fields += sep;
        for (let j = 0; j < v.length; j++) {
          if (j) fields += sep;
          fields += ks + convert(v[j]);
        }
      } else {
        if (fields) fields += sep;
        fields += ks + convert(v);
      }
    }
    return fields;
  }

  const ESCAPE = /%[0-9a-fA-F]{2}/;
  // s with every "+" a space (s.replace(/\+/g, " ") without the live Symbol.replace)
  function plusToSpace(s) {
    let at = StringIndexOf(s, "+");
    if (at === -1) return s;
    let out = "", from = 0;
    for (; at !== -1; at = StringIndexOf(s, "+", from)) {
      out += StringSlice(s, from, at) + " ";
      from = at + 1;
    }
    return out + StringSlice(s, from);
  }

  function parse(qs, sep, eq, options) {
    const obj = ObjectCreate(null);
    if (typeof qs !== "string" || qs.length === 0) return obj;
    sep = sep ? StringCtor(sep) : "&";
    eq = eq ? StringCtor(eq) : "=";
    let maxKeys = 1000;
    if (options && typeof options.maxKeys === "number") maxKeys = options.maxKeys;
    const limit = maxKeys > 0 ? maxKeys : Infinity;
    let decode = api.unescape;
    if (options && typeof options.decodeURIComponent === "function") decode = options.decodeURIComponent;
    const custom = decode !== qsUnescape;
    const decodeText = (s) => {
      // The built-in decoder only runs where a well-formed %XX escape occurs (as in Node).
      if (!custom && RegExpExec(ESCAPE, s) === null) return s;
      try { return decode(s); } catch (_) { return api.unescape(s, true); }
    };
    let start = 0, count = 0;
    while (count < limit && start <= qs.length) {
      // an empty separator (sep given as [] or "") never matches: the whole string is one pair, as in Node
      let end = sep.length === 0 ? -1 : StringIndexOf(qs, sep, start);
      if (end < 0) end = qs.length;
      const fragment = StringSlice(qs, start, end);
      count++;
      start = end + sep.length;
      if (fragment.length > 0) {
        const at = StringIndexOf(fragment, eq);
        const rawKey = at < 0 ? fragment : StringSlice(fragment, 0, at);
        const rawValue = at < 0 ? "" : StringSlice(fragment, at + eq.length);
        const key = decodeText(plusToSpace(rawKey));
        const value = decodeText(plusToSpace(rawValue));
        const prev = obj[key];
        if (prev === undefined) obj[key] = value;
        else if (ArrayIsArray(prev)) C.defineValue(prev, prev.length, value);
        else obj[key] = [prev, value];
      }
      if (end === qs.length) break;
    }
    return obj;
  }

  const api = {
    unescapeBuffer, unescape: qsUnescape, escape: qsEscape,
    stringify, encode: stringify, parse, decode: parse,
  };
  // Not frozen: as in Node, a program may replace escape/unescape/unescapeBuffer on the module,
  // and stringify/parse look them up there at call time (the change stays in this run).
  return api;
})
