/* node/internal_dataurl.js — the Fetch standard's data: URL processor, so that fetch("data:…")
 * is answered inside the engine as Node and browsers answer it (no network, no host op, nothing
 * recorded: the answer is a pure function of the URL). Packages use it as a capability probe
 * (the openai SDK fetches `data:,` to learn which Response class fetch returns).
 * Input: the serialized URL (already parsed by the URL parser). Output: {mime, bytes} or null when
 * the URL is not a valid data: URL (fetch then fails as Node's does). */
(function (require, natives, name) {
  "use strict";
  // On builtins captured before guest code (natives.primordials): no live String/RegExp method.
  const text = require("internal/text");
  const P = natives.primordials, u = P.uncurry;
  const { ObjectFreeze, list, rec } = P;
  const StringSlice = u(P.StringPrototypeSlice), StringIndexOf = u(P.StringPrototypeIndexOf);
  const StringToLowerCase = u(P.StringPrototypeToLowerCase), StringStartsWith = u(P.StringPrototypeStartsWith);
  const StringCharCodeAt = u(P.StringPrototypeCharCodeAt), RegExpExec = u(P.RegExpPrototypeExec);
  const TypedArraySlice = u(P.TypedArrayPrototypeSlice), ArrayIndexOf = u(P.ArrayPrototypeIndexOf);
  const RegExpTest = (re, s) => RegExpExec(re, s) !== null;

  const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
  const isWs = (c) => c === 9 || c === 10 || c === 12 || c === 13 || c === 32; // ASCII whitespace
  const isHttpWs = (c) => c === 9 || c === 10 || c === 13 || c === 32;
  function trimEnd(s, ws) {
    let b = s.length;
    while (b > 0 && ws(StringCharCodeAt(s, b - 1))) b--;
    return b === s.length ? s : StringSlice(s, 0, b);
  }
  function trimStart(s, ws) {
    let a = 0;
    while (a < s.length && ws(StringCharCodeAt(s, a))) a++;
    return a === 0 ? s : StringSlice(s, a);
  }
  const trim = (s, ws) => trimStart(trimEnd(s, ws), ws);

  // Percent-decoding of a string's UTF-8 bytes (invalid escapes stay as they are).
  function percentDecode(s) {
    const b = text.utf8Encode(s);
    const out = new Uint8Array(b.length);
    let o = 0;
    const hex = (c) => (c >= 48 && c <= 57 ? c - 48 : c >= 65 && c <= 70 ? c - 55 : c >= 97 && c <= 102 ? c - 87 : -1);
    for (let i = 0; i < b.length; i++) {
      if (b[i] === 37 && i + 2 < b.length && hex(b[i + 1]) >= 0 && hex(b[i + 2]) >= 0) {
        out[o++] = hex(b[i + 1]) * 16 + hex(b[i + 2]);
        i += 2;
      } else out[o++] = b[i];
    }
    return TypedArraySlice(out, 0, o);
  }

  // A parameter value in the form the MIME Sniffing standard serializes it: a token as it is, else
  // quoted with '"' and '\' escaped.
  function serializeValue(value) {
    if (RegExpTest(TOKEN, value)) return value;
    let out = "\"";
    for (let i = 0; i < value.length; i++) {
      const c = StringCharCodeAt(value, i);
      out += (c === 34 || c === 92 ? "\\" : "") + StringSlice(value, i, i + 1);
    }
    return out + "\"";
  }

  // A MIME type serialized as the MIME Sniffing standard does, or null when it does not parse.
  function parseMime(s) {
    s = trim(s, isWs);
    const slash = StringIndexOf(s, "/");
    if (slash <= 0) return null;
    const type = StringSlice(s, 0, slash);
    const semi = StringIndexOf(s, ";", slash);
    const sub = trimEnd(semi < 0 ? StringSlice(s, slash + 1) : StringSlice(s, slash + 1, semi), isHttpWs);
    if (!RegExpTest(TOKEN, type) || !RegExpTest(TOKEN, sub)) return null;
    let out = StringToLowerCase(type) + "/" + StringToLowerCase(sub);
    const seen = list();
    if (semi >= 0) {
      const params = StringSlice(s, semi + 1);
      for (let a = 0; a <= params.length;) {
        let b = StringIndexOf(params, ";", a);
        if (b < 0) b = params.length;
        const p = trimStart(StringSlice(params, a, b), isHttpWs);
        a = b + 1;
        const eq = StringIndexOf(p, "=");
        if (eq <= 0) continue;
        const pname = StringToLowerCase(StringSlice(p, 0, eq));
        let value = StringSlice(p, eq + 1);
        if (StringStartsWith(value, "\"")) {
          const close = StringIndexOf(value, "\"", 1);
          value = close < 0 ? StringSlice(value, 1) : StringSlice(value, 1, close);
        } else value = trimEnd(value, isHttpWs);
        if (value === "" || !RegExpTest(TOKEN, pname) || ArrayIndexOf(seen, pname) >= 0 ||
            RegExpTest(/[^\t\u0020-\u007e\u0080-\u00ff]/, value)) continue;
        seen[seen.length] = pname;
        out += ";" + pname + "=" + serializeValue(value);
      }
    }
    return out;
  }

  function processDataUrl(href) {
    let input = StringSlice(href, 5);
    const hash = StringIndexOf(input, "#");
    if (hash >= 0) input = StringSlice(input, 0, hash);
    const comma = StringIndexOf(input, ",");
    if (comma < 0) return null;
    let mime = trim(StringSlice(input, 0, comma), isWs);
    let bytes = percentDecode(StringSlice(input, comma + 1));
    const m = RegExpExec(/;[\u0020]*base64$/i, mime);
    if (m) {
      let decoded;
      try {
        decoded = text.atob(text.latin1Decode(bytes, 0, bytes.length, false));
      } catch (_) {
        return null;
      }
      bytes = new Uint8Array(decoded.length);
      for (let i = 0; i < decoded.length; i++) bytes[i] = StringCharCodeAt(decoded, i);
      mime = StringSlice(mime, 0, m.index);
    }
    if (StringStartsWith(mime, ";")) mime = "text/plain" + mime;
    return { __proto__: null, mime: parseMime(mime) || "text/plain;charset=US-ASCII", bytes };
  }

  return ObjectFreeze({ processDataUrl });
})
