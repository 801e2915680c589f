/* node/internal_dataurl.js — the Fetch standard's data: URL processor, so that fetch("data:…")
 * is answered inside the engine as Node and browsers answer it (no network, no host op, nothing
 * recorded: the answer is a pure function of the URL). Packages use it as a capability probe
 * (the openai SDK fetches `data:,` to learn which Response class fetch returns).
 * Input: the serialized URL (already parsed by the URL parser). Output: {mime, bytes} or null when
 * the URL is not a valid data: URL (fetch then fails as Node's does). */
(function (require, natives, name) {
  "use strict";
  const text = require("internal/text");

  const ASCII_WS = /^[\t\n\f\r ]+|[\t\n\f\r ]+$/g;
  const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

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
    return out.slice(0, o);
  }

  // A MIME type serialized as the MIME Sniffing standard does, or null when it does not parse.
  function parseMime(s) {
    s = s.replace(ASCII_WS, "");
    const slash = s.indexOf("/");
    if (slash <= 0) return null;
    const type = s.slice(0, slash);
    const semi = s.indexOf(";", slash);
    const sub = (semi < 0 ? s.slice(slash + 1) : s.slice(slash + 1, semi)).replace(/[\t\n\r ]+$/, "");
    if (!TOKEN.test(type) || !TOKEN.test(sub)) return null;
    let out = type.toLowerCase() + "/" + sub.toLowerCase();
    const seen = new Set();
    if (semi >= 0) {
      for (const raw of s.slice(semi + 1).split(";")) {
        const p = raw.replace(/^[\t\n\r ]+/, "");
        const eq = p.indexOf("=");
        if (eq <= 0) continue;
        const pname = p.slice(0, eq).toLowerCase();
        let value = p.slice(eq + 1);
        if (value.startsWith("\"")) value = value.slice(1, value.indexOf("\"", 1) < 0 ? undefined : value.indexOf("\"", 1));
        else value = value.replace(/[\t\n\r ]+$/, "");
        if (value === "" || !TOKEN.test(pname) || seen.has(pname) || /[^\t\u0020-\u007e\u0080-\u00ff]/.test(value)) continue;
        seen.add(pname);
        out += ";" + pname + "=" + (TOKEN.test(value) ? value : "\"" + value.replace(/(["\\])/g, "\\$1") + "\"");
      }
    }
    return out;
  }

  function processDataUrl(href) {
    let input = href.slice(5);
    const hash = input.indexOf("#");
    if (hash >= 0) input = input.slice(0, hash);
    const comma = input.indexOf(",");
    if (comma < 0) return null;
    let mime = input.slice(0, comma).replace(ASCII_WS, "");
    let bytes = percentDecode(input.slice(comma + 1));
    const m = /;[\u0020]*base64$/i.exec(mime);
    if (m) {
      let decoded;
      try {
        decoded = text.atob(text.latin1Decode(bytes, 0, bytes.length, false));
      } catch (_) {
        return null;
      }
      bytes = new Uint8Array(decoded.length);
      for (let i = 0; i < decoded.length; i++) bytes[i] = decoded.charCodeAt(i);
      mime = mime.slice(0, m.index);
    }
    if (mime.startsWith(";")) mime = "text/plain" + mime;
    return { mime: parseMime(mime) || "text/plain;charset=US-ASCII", bytes };
  }

  return Object.freeze({ processDataUrl });
})
