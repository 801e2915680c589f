/* node/internal_decode.js — bytes to text for string_decoder and querystring, as Buffer#toString
 * writes it (utf8 with U+FFFD for each maximal invalid subpart, utf16le, latin1, ascii, hex,
 * base64, base64url), on builtins captured before guest code (internal/captures_util) and without
 * any Buffer or TypedArray method a guest could replace: bytes are read by index, the length
 * through the captured getter.
 *
 * Pure computation over a Uint8Array (or Buffer) and a range; trusts nothing else. */
(function (require, natives, name) {
  "use strict";
  const C = require("internal/captures_util");
  const { ReflectApply, StringFromCharCode, list } = C;
  const byteLength = C.uncurryThis(C.TypedArrayPrototypeGetLength);
  const CHUNK = 4096; // code units per String.fromCharCode call

  // A string from a list of UTF-16 code units, in chunks (an argument list has a size limit).
  function unitsText(units) {
    let out = "";
    for (let i = 0; i < units.length; i += CHUNK) {
      const part = list();
      const end = i + CHUNK < units.length ? i + CHUNK : units.length;
      for (let j = i; j < end; j++) part[part.length] = units[j];
      out += ReflectApply(StringFromCharCode, null, part);
    }
    return out;
  }

  function utf8(b, start, end) {
    const units = list();
    let i = start;
    while (i < end) {
      const c = b[i];
      if (c < 0x80) { units[units.length] = c; i++; continue; }
      let need, cp;
      if (c >= 0xc2 && c <= 0xdf) { need = 1; cp = c & 0x1f; }
      else if (c >= 0xe0 && c <= 0xef) { need = 2; cp = c & 0x0f; }
      else if (c >= 0xf0 && c <= 0xf4) { need = 3; cp = c & 0x07; }
      else { units[units.length] = 0xfffd; i++; continue; }
      let lower = 0x80, upper = 0xbf;
      if (c === 0xe0) lower = 0xa0;
      else if (c === 0xed) upper = 0x9f;
      else if (c === 0xf0) lower = 0x90;
      else if (c === 0xf4) upper = 0x8f;
      let j = i + 1, ok = true;
      for (let k = 0; k < need; k++, j++) {
        const d = j < end ? b[j] : -1;
        if (d < lower || d > upper) { ok = false; break; }
        lower = 0x80; upper = 0xbf;
        cp = (cp << 6) | (d & 0x3f);
      }
      // an invalid byte ends the subpart and is read again as the start of the next
      if (!ok) { units[units.length] = 0xfffd; i = j; continue; }
      if (cp > 0xffff) {
        cp -= 0x10000;
        units[units.length] = 0xd800 + (cp >> 10);
        units[units.length] = 0xdc00 + (cp & 0x3ff);
      } else {
        units[units.length] = cp;
      }
      i = j;
    }
    return unitsText(units);
  }

  function utf16le(b, start, end) {
    const units = list();
    for (let i = start; i + 1 < end; i += 2) units[units.length] = b[i] | (b[i + 1] << 8);
    return unitsText(units);
  }

  function singleByte(b, start, end, mask) {
    const units = list();
    for (let i = start; i < end; i++) units[units.length] = b[i] & mask;
    return unitsText(units);
  }

  const HEX = "0123456789abcdef";
  function hex(b, start, end) {
    let out = "";
    for (let i = start; i < end; i++) out += HEX[b[i] >> 4] + HEX[b[i] & 15];
    return out;
  }

  const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const B64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  function base64(b, start, end, alphabet, pad) {
    let out = "";
    let i = start;
    for (; i + 2 < end; i += 3) {
      const n = (b[i] << 16) | (b[i + 1] << 8) | b[i + 2];
      out += alphabet[n >> 18] + alphabet[(n >> 12) & 63] + alphabet[(n >> 6) & 63] + alphabet[n & 63];
    }
    if (end - i === 1) {
      const n = b[i] << 16;
      out += alphabet[n >> 18] + alphabet[(n >> 12) & 63] + (pad ? "==" : "");
    } else if (end - i === 2) {
      const n = (b[i] << 16) | (b[i + 1] << 8);
      out += alphabet[n >> 18] + alphabet[(n >> 12) & 63] + alphabet[(n >> 6) & 63] + (pad ? "=" : "");
    }
    return out;
  }

  // The text of b[start, end) in `encoding` (already normalized: utf8, utf16le, latin1, ascii,
  // hex, base64, base64url).
  function decode(b, encoding, start, end) {
    const length = byteLength(b);
    if (start === undefined) start = 0;
    if (end === undefined || end > length) end = length;
    if (start >= end) return "";
    switch (encoding) {
      case "utf8": return utf8(b, start, end);
      case "utf16le": return utf16le(b, start, end);
      case "latin1": return singleByte(b, start, end, 0xff);
      case "ascii": return singleByte(b, start, end, 0x7f);
      case "hex": return hex(b, start, end);
      case "base64": return base64(b, start, end, B64, true);
      case "base64url": return base64(b, start, end, B64URL, false);
      default: throw new C.TypeErrorCtor("internal/decode: unknown encoding " + encoding);
    }
  }

  return C.ObjectFreeze({ __proto__: null, decode, byteLength });
})
