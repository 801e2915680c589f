/* node/querystring.js — node:querystring: the legacy form-encoding helpers (parse/decode,
 * stringify/encode, escape, unescape, unescapeBuffer) with Node's observable quirks: results with
 * a null prototype, repeated keys collected into arrays, maxKeys counted over fragments,
 * malformed escapes kept as written, and `escape`/`unescape` looked up on the module at call time
 * so code that replaces them is honoured.
 *
 * Pure string computation over guest values; trusts nothing it is given. */
(function (require, natives, name) {
  "use strict";
  const { codedError } = require("internal/text");
  const { Buffer } = require("buffer");

  function hexValue(c) {
    if (c >= 48 && c <= 57) return c - 48;
    if (c >= 65 && c <= 70) return c - 55;
    if (c >= 97 && c <= 102) return c - 87;
    return -1;
  }

  // Bytes of `s` with valid %XX escapes decoded (and '+' as a space when asked); other characters
  // keep their low byte, as Node's version does.
  function unescapeBuffer(s, decodeSpaces) {
    s = String(s);
    const out = Buffer.alloc(s.length);
    let n = 0;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c === 37 && i + 2 < s.length) {
        const hi = hexValue(s.charCodeAt(i + 1)), lo = hexValue(s.charCodeAt(i + 2));
        if (hi >= 0 && lo >= 0) { out[n++] = hi * 16 + lo; i += 2; continue; }
      }
      out[n++] = c === 43 && decodeSpaces ? 32 : c & 0xff;
    }
    return out.subarray(0, n);
  }

  function qsUnescape(s, decodeSpaces) {
    try { return decodeURIComponent(s); } catch (_) { return api.unescapeBuffer(s, decodeSpaces).toString(); }
  }

  // encodeURIComponent leaves exactly the characters Node's table leaves alone.
  function qsEscape(str) {
    if (typeof str !== "string") str = typeof str === "object" ? String(str) : str + "";
    try { return encodeURIComponent(str); } catch (_) { throw codedError(URIError, "ERR_INVALID_URI", "URI malformed"); }
  }

  function primitiveText(v) {
    if (typeof v === "string") return v;
    if (typeof v === "number") return isFinite(v) ? "" + v : "";
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
    const keys = Object.keys(obj);
    let fields = "";
    for (let i = 0; i < keys.length; i++) {
      const v = obj[keys[i]];
      const ks = convert(keys[i]) + eq;
      if (Array.isArray(v)) {
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

  function parse(qs, sep, eq, options) {
    const obj = Object.create(null);
    if (typeof qs !== "string" || qs.length === 0) return obj;
    sep = sep ? String(sep) : "&";
    eq = eq ? String(eq) : "=";
    let maxKeys = 1000;
    if (options && typeof options.maxKeys === "number") maxKeys = options.maxKeys;
    const limit = maxKeys > 0 ? maxKeys : Infinity;
    let decode = api.unescape;
    if (options && typeof options.decodeURIComponent === "function") decode = options.decodeURIComponent;
    const custom = decode !== qsUnescape;
    const decodeText = (s) => {
      // The built-in decoder only runs where a well-formed %XX escape occurs (as in Node).
      if (!custom && !/%[0-9a-fA-F]{2}/.test(s)) return s;
      try { return decode(s); } catch (_) { return api.unescape(s, true); }
    };
    let start = 0, count = 0;
    while (count < limit && start <= qs.length) {
      let end = qs.indexOf(sep, start);
      if (end < 0) end = qs.length;
      const fragment = qs.slice(start, end);
      count++;
      start = end + sep.length;
      if (fragment.length > 0) {
        const at = fragment.indexOf(eq);
        const rawKey = at < 0 ? fragment : fragment.slice(0, at);
        const rawValue = at < 0 ? "" : fragment.slice(at + eq.length);
        const key = decodeText(rawKey.replace(/\+/g, " "));
        const value = decodeText(rawValue.replace(/\+/g, " "));
        const prev = obj[key];
        if (prev === undefined) obj[key] = value;
        else if (Array.isArray(prev)) prev.push(value);
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
  return Object.freeze(api);
})
