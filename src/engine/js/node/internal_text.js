/* node/internal_text.js — text and byte codecs for the Web/Node surface: TextEncoder, TextDecoder
 * (utf-8, utf-16le/be, windows-1252 a.k.a. latin1), atob/btoa, DOMException, and the helpers the
 * other shims share (UTF-8 and base64 codecs over Uint8Array, Node-style coded errors).
 *
 * Pure computation over guest values; trusts nothing it is given. Every loop is bounded by the
 * length of an input the guest already allocated, and outputs are sized up front, so the engine's
 * allocation metering sees each buffer once. */
(function (require, natives, name) {
  "use strict";

  // Builtins captured before guest code ran (natives.primordials, docs/primordials.md): this module
  // encodes what fetch, http, fs and crypto send to the host, so its own paths read no
  // guest-writable property. The per-character loops read String.prototype.charCodeAt directly
  // only after checking it is still the original (codeUnitReader): no guest code runs inside them.
  const P = natives.primordials, u = P.uncurry;
  const { ReflectApply, StringCtor, ObjectDefineProperty, ObjectFreeze, ObjectHasOwn, MathFloor, MathCeil, MathMax, ArrayBufferIsView, TypeErrorCtor, rec } = P;
  // globals and small forms in place of captures (docs/primordials.md: global bindings are not covered)
  const MathMin = (a, b) => (a < b ? a : b), RangeErrorCtor = RangeError;
  const fromCharCode = P.StringFromCharCode;
  const StringCharCodeAt = u(P.StringPrototypeCharCodeAt), StringSlice = u(P.StringPrototypeSlice);
  const StringIndexOf = u(P.StringPrototypeIndexOf), StringToLowerCase = u(P.StringPrototypeToLowerCase);
  const TypedArraySlice = u(P.TypedArrayPrototypeSlice);
  const TypedArraySet = u(P.TypedArrayPrototypeSet), TypedArrayFill = u(P.TypedArrayPrototypeFill);
  const WeakMapGet = u(P.WeakMapPrototypeGet), WeakMapSet = u(P.WeakMapPrototypeSet);
  const StringProto = StringCtor.prototype, charCodeAt = P.StringPrototypeCharCodeAt;
  const directAt = (s, i) => s.charCodeAt(i);
  // (s, i) → code unit: the direct method call when String.prototype.charCodeAt is the original
  // data property (about 3x cheaper than a Reflect.apply per character), else the captured one.
  function codeUnitReader() {
    const d = P.ReflectGetOwnPropertyDescriptor(StringProto, "charCodeAt");
    return d !== undefined && ObjectHasOwn(d, "value") && d.value === charCodeAt ? directAt : StringCharCodeAt;
  }
  const CHUNK = 8192;
  // Native helpers used as fast paths for UTF-8 (captured before guest code).
  const escape_ = P.Escape, unescape_ = P.Unescape;
  const encodeURIComponent_ = P.EncodeURIComponent, decodeURIComponent_ = P.DecodeURIComponent;

  /* ---- errors ---- */

  // An Error of class Ctor carrying a Node error code, as Node's internal errors do.
  function codedError(Ctor, code, message) {
    const err = new Ctor(message);
    ObjectDefineProperty(err, "code", { __proto__: null, value: code, writable: true, configurable: true, enumerable: true });
    return err;
  }

  // util.inspect, loaded on demand (util itself requires this module).
  function inspect(value, options) {
    try { return require("util").inspect(value, options); } catch (_) { return StringCtor(value); }
  }

  // The " Received ..." tail of Node's ERR_INVALID_ARG_TYPE messages.
  function describeReceived(value) {
    if (value === null || value === undefined) return " Received " + value;
    if (typeof value === "function") return " Received function " + value.name;
    if (typeof value === "object") {
      const ctor = value.constructor;
      if (ctor && typeof ctor.name === "string" && ctor.name) return " Received an instance of " + ctor.name;
      return " Received " + inspect(value, { depth: -1 });
    }
    let shown = inspect(value, { colors: false });
    if (shown.length > 28) shown = StringSlice(shown, 0, 25) + "...";
    return " Received type " + typeof value + " (" + shown + ")";
  }

  // TypeError ERR_INVALID_ARG_TYPE: `The "<what>" argument must be <expected>. Received ...`.
  function invalidArgType(what, expected, value) {
    // a name that is itself a phrase ("last argument") goes in as it is, as in Node's wording
    const phrase = what.length > 9 && StringSlice(what, what.length - 9) === " argument";
    const noun = StringIndexOf(what, ".") >= 0 ? "property" : "argument";
    return codedError(TypeErrorCtor, "ERR_INVALID_ARG_TYPE",
      (phrase ? "The " + what : "The \"" + what + "\" " + noun) + " must be " + expected + "." + describeReceived(value));
  }

  /* ---- DOMException ---- */

  const DOM_CODES = {
    IndexSizeError: 1, HierarchyRequestError: 3, WrongDocumentError: 4, InvalidCharacterError: 5,
    NoModificationAllowedError: 7, NotFoundError: 8, NotSupportedError: 9, InvalidStateError: 11,
    SyntaxError: 12, InvalidModificationError: 13, NamespaceError: 14, InvalidAccessError: 15,
    TypeMismatchError: 17, SecurityError: 18, NetworkError: 19, AbortError: 20, URLMismatchError: 21,
    QuotaExceededError: 22, TimeoutError: 23, InvalidNodeTypeError: 24, DataCloneError: 25,
  };
  const domName = new WeakMap();

  class DOMException extends Error {
    constructor(message, options) {
      super(message === undefined ? "" : StringCtor(message));
      let n = "Error";
      if (options !== null && typeof options === "object") {
        if ("name" in options) n = StringCtor(options.name);
        if ("cause" in options) ObjectDefineProperty(this, "cause", { __proto__: null, value: options.cause, writable: true, configurable: true });
      } else if (options !== undefined) {
        n = StringCtor(options);
      }
      WeakMapSet(domName, this, n);
    }
    get name() { const n = WeakMapGet(domName, this); return n === undefined ? "Error" : n; }
    get code() { const n = WeakMapGet(domName, this); return n !== undefined && ObjectHasOwn(DOM_CODES, n) ? DOM_CODES[n] : 0; }
  }
  ObjectDefineProperty(DOMException.prototype, Symbol.toStringTag, { __proto__: null, value: "DOMException", configurable: true });

  // ASCII letters upper-cased, everything else as it is (HTTP methods)
  function asciiUpper(s) {
    let out = "", from = 0;
    for (let i = 0; i < s.length; i++) {
      const c = StringCharCodeAt(s, i);
      if (c < 97 || c > 122) continue;
      out += StringSlice(s, from, i) + ReflectApply(fromCharCode, null, [c - 32]);
      from = i + 1;
    }
    return from === 0 ? s : out + StringSlice(s, from);
  }

  /* ---- byte views ---- */

  // A Buffer over the same bytes (what new FastBuffer(buffer, offset, length) in node:buffer makes:
  // a Uint8Array whose prototype is Buffer.prototype), made without running node:buffer's code.
  let bufferProto = null;
  function asBuffer(u8) {
    if (bufferProto === null) bufferProto = require("buffer").Buffer.prototype;
    return P.ObjectSetPrototypeOf(new Uint8Array(u8.buffer, u8.byteOffset, u8.byteLength), bufferProto);
  }

  // A Uint8Array over the bytes of an ArrayBuffer or any ArrayBufferView, or null.
  function bytesOf(input) {
    if (input instanceof Uint8Array) return input;
    if (input instanceof ArrayBuffer || (typeof SharedArrayBuffer === "function" && input instanceof SharedArrayBuffer))
      return new Uint8Array(input);
    if (ArrayBufferIsView(input)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
    return null;
  }

  // %TypedArray%.prototype's buffer/byteOffset/byteLength getters and Function.prototype[Symbol.hasInstance],
  // captured (primordials.js's `streams` array) for node:buffer's paths through this module (bufprim)
  const TypedArrayBuffer = u(P.streams[20]), TypedArrayByteOffset = u(P.streams[21]), TypedArrayByteLength = u(P.streams[22]);
  const isUint8Array = (v) => ReflectApply(P.streams[7], P.streams[23], [v]);
  const LENGTH_DESC = { __proto__: null, value: 0 };

  // Turns code units in u16[0..n) into a string, a chunk at a time (apply has an argument limit).
  // Reflect.apply reads its list's `length` through the prototype (a guest-writable getter of
  // %TypedArray%.prototype), so each chunk is a fresh view (no subarray: it reads the species)
  // with its own `length`.
  function unitsToString(u16, n) {
    let s = "";
    for (let i = 0; i < n; i += CHUNK) {
      const k = MathMin(n, i + CHUNK) - i;
      const chunk = new Uint16Array(TypedArrayBuffer(u16), TypedArrayByteOffset(u16) + 2 * i, k);
      LENGTH_DESC.value = k;
      ObjectDefineProperty(chunk, "length", LENGTH_DESC);
      s += ReflectApply(fromCharCode, null, chunk);
    }
    return s;
  }

  /* ---- UTF-8 ---- */

  // Number of UTF-8 bytes of str (a lone surrogate counts as U+FFFD, 3 bytes).
  function utf8Length(str) {
    let len = 0;
    const n = str.length, at = codeUnitReader();
    for (let i = 0; i < n; i++) {
      const c = at(str, i);
      if (c < 0x80) len += 1;
      else if (c < 0x800) len += 2;
      else if (c >= 0xd800 && c <= 0xdbff && i + 1 < n && (at(str, i + 1) & 0xfc00) === 0xdc00) { len += 4; i++; }
      else len += 3;
    }
    return len;
  }

  // Writes str as UTF-8 into out[at..limit); stops before a character that would not fit whole.
  // Returns [code units read, bytes written].
  function utf8Write(str, out, at, limit) {
    const n = str.length, cu = codeUnitReader();
    let i = 0, p = at;
    while (i < n) {
      let c = cu(str, i);
      let units = 1;
      if (c >= 0xd800 && c <= 0xdfff) {
        if (c <= 0xdbff && i + 1 < n && (cu(str, i + 1) & 0xfc00) === 0xdc00) {
          c = 0x10000 + ((c - 0xd800) << 10) + (cu(str, i + 1) - 0xdc00);
          units = 2;
        } else {
          c = 0xfffd;
        }
      }
      if (c < 0x80) {
        if (p + 1 > limit) break;
        out[p++] = c;
      } else if (c < 0x800) {
        if (p + 2 > limit) break;
        out[p++] = 0xc0 | (c >> 6);
        out[p++] = 0x80 | (c & 0x3f);
      } else if (c < 0x10000) {
        if (p + 3 > limit) break;
        out[p++] = 0xe0 | (c >> 12);
        out[p++] = 0x80 | ((c >> 6) & 0x3f);
        out[p++] = 0x80 | (c & 0x3f);
      } else {
        if (p + 4 > limit) break;
        out[p++] = 0xf0 | (c >> 18);
        out[p++] = 0x80 | ((c >> 12) & 0x3f);
        out[p++] = 0x80 | ((c >> 6) & 0x3f);
        out[p++] = 0x80 | (c & 0x3f);
      }
      i += units;
    }
    return [i, p - at];
  }

  function utf8Encode(str) {
    str = StringCtor(str);
    // Fast path: the engine's own UTF-8 encoder (encodeURIComponent) yields the bytes as %XX and
    // unescape turns them into one char per byte. It rejects lone surrogates; the loop below
    // writes those as U+FFFD.
    let binary = null;
    try { binary = unescape_(encodeURIComponent_(str)); } catch (_) { binary = null; }
    if (binary !== null) {
      const n = binary.length, at = codeUnitReader();
      const out = new Uint8Array(n);
      for (let i = 0; i < n; i++) out[i] = at(binary, i);
      return out;
    }
    const out = new Uint8Array(utf8Length(str));
    utf8Write(str, out, 0, out.length);
    return out;
  }

  // Valid UTF-8 decoded by the engine: the bytes as one char each, escape() to %XX, then
  // decodeURIComponent, which throws on anything that is not valid UTF-8 (overlong forms,
  // surrogates, truncation, beyond U+10FFFF). Null then: the WHATWG decoder places the U+FFFDs.
  function nativeUtf8Decode(bytes, start, end) {
    const binary = latin1Decode(bytes, start, end, false);
    try { return decodeURIComponent_(escape_(binary)); } catch (_) { return null; }
  }

  // The WHATWG UTF-8 decoder over bytes[start..end). Each maximal invalid subpart becomes one
  // U+FFFD, or throws when fatal. With stream, an incomplete sequence at the end is not an error:
  // its start offset is returned as `pending` (else pending is end).
  function utf8DecodeRange(bytes, start, end, fatal, stream) {
    if (!stream && end - start > 16) {
      const text = nativeUtf8Decode(bytes, start, end);
      if (text !== null) return { __proto__: null, text, pending: end };
    }
    const u16 = new Uint16Array(MathMax(end - start, 1));
    let n = 0;
    let needed = 0, seen = 0, cp = 0, lower = 0x80, upper = 0xbf, seqStart = start;
    const bad = () => {
      if (fatal) throw codedError(TypeErrorCtor, "ERR_ENCODING_INVALID_ENCODED_DATA", "The encoded data was not valid for encoding utf-8");
      u16[n++] = 0xfffd;
    };
    for (let i = start; i < end; i++) {
      const b = bytes[i];
      if (needed === 0) {
        if (b < 0x80) { u16[n++] = b; continue; }
        seqStart = i;
        if (b >= 0xc2 && b <= 0xdf) { needed = 1; cp = b & 0x1f; }
        else if (b >= 0xe0 && b <= 0xef) {
          if (b === 0xe0) lower = 0xa0;
          if (b === 0xed) upper = 0x9f;
          needed = 2; cp = b & 0x0f;
        } else if (b >= 0xf0 && b <= 0xf4) {
          if (b === 0xf0) lower = 0x90;
          if (b === 0xf4) upper = 0x8f;
          needed = 3; cp = b & 0x07;
        } else bad();
        continue;
      }
      if (b < lower || b > upper) {
        needed = seen = cp = 0; lower = 0x80; upper = 0xbf;
        bad();
        i--; // the byte starts over
        continue;
      }
      lower = 0x80; upper = 0xbf;
      cp = (cp << 6) | (b & 0x3f);
      if (++seen === needed) {
        if (cp >= 0x10000) {
          cp -= 0x10000;
          u16[n++] = 0xd800 + (cp >> 10);
          u16[n++] = 0xdc00 + (cp & 0x3ff);
        } else {
          u16[n++] = cp;
        }
        needed = seen = cp = 0;
      }
    }
    let pending = end;
    if (needed !== 0) {
      if (stream) pending = seqStart;
      else bad();
    }
    return { __proto__: null, text: unitsToString(u16, n), pending };
  }

  function utf8Decode(bytes, start, end) {
    if (start === undefined) start = 0;
    if (end === undefined) end = bytes.length;
    return utf8DecodeRange(bytes, start, end, false, false).text;
  }

  /* ---- single-byte and UTF-16 ---- */

  // windows-1252 bytes 0x80..0x9F (WHATWG index); the rest map to the same code point.
  const CP1252 = [0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152,
    0x8d, 0x17d, 0x8f, 0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161,
    0x203a, 0x153, 0x9d, 0x17e, 0x178];

  function latin1Decode(bytes, start, end, cp1252) {
    const n = end - start;
    const u16 = new Uint16Array(MathMax(n, 1));
    for (let i = 0; i < n; i++) {
      const b = bytes[start + i];
      u16[i] = cp1252 && b >= 0x80 && b <= 0x9f ? CP1252[b - 0x80] : b;
    }
    return unitsToString(u16, n);
  }

  // Code units from byte pairs; `big` for UTF-16BE. A trailing odd byte is left out.
  function utf16Units(bytes, start, end, big) {
    const n = (end - start) >> 1;
    const u16 = new Uint16Array(MathMax(n, 1));
    for (let i = 0, p = start; i < n; i++, p += 2) u16[i] = big ? (bytes[p] << 8) | bytes[p + 1] : bytes[p] | (bytes[p + 1] << 8);
    return { __proto__: null, u16, n };
  }

  /* ---- base64 ---- */

  const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const B64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  // Both alphabets decode: -1 marks a byte outside them.
  const B64_VALUE = TypedArrayFill(new Int8Array(128), -1);
  for (let i = 0; i < 64; i++) { B64_VALUE[StringCharCodeAt(B64, i)] = i; B64_VALUE[StringCharCodeAt(B64URL, i)] = i; }

  // Base64 (or unpadded base64url) of a Uint8Array, or of any ArrayBuffer/view.
  function bytesToBase64(bytes, url) {
    if (!isUint8Array(bytes)) {
      const view = bytesOf(bytes);
      if (view === null) throw invalidArgType("bytes", "an instance of ArrayBuffer or ArrayBufferView", bytes);
      bytes = view;
    }
    const alphabet = url ? B64URL : B64;
    const codes = new Uint16Array(64), at = codeUnitReader();
    for (let i = 0; i < 64; i++) codes[i] = at(alphabet, i);
    const n = TypedArrayByteLength(bytes);
    const full = MathFloor(n / 3) * 3;
    const outLen = url ? MathCeil(n * 4 / 3) : MathCeil(n / 3) * 4;
    const u16 = new Uint16Array(MathMax(outLen, 1));
    let p = 0, i = 0;
    for (; i < full; i += 3) {
      const v = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
      u16[p++] = codes[v >> 18];
      u16[p++] = codes[(v >> 12) & 63];
      u16[p++] = codes[(v >> 6) & 63];
      u16[p++] = codes[v & 63];
    }
    if (n - full === 1) {
      const v = bytes[i] << 16;
      u16[p++] = codes[v >> 18];
      u16[p++] = codes[(v >> 12) & 63];
      if (!url) { u16[p++] = 61; u16[p++] = 61; }
    } else if (n - full === 2) {
      const v = (bytes[i] << 16) | (bytes[i + 1] << 8);
      u16[p++] = codes[v >> 18];
      u16[p++] = codes[(v >> 12) & 63];
      u16[p++] = codes[(v >> 6) & 63];
      if (!url) u16[p++] = 61;
    }
    return unitsToString(u16, p);
  }

  // Lenient decoding, as Node's Buffer does: both alphabets, characters outside them are skipped,
  // decoding stops at the first "=". A final lone sextet is dropped. The result owns an
  // ArrayBuffer of exactly its length.
  function base64ToBytes(str) {
    str = StringCtor(str);
    const n = str.length, at = codeUnitReader();
    const size = MathFloor(n * 3 / 4) + 1;
    const out = new Uint8Array(size);
    let p = 0, acc = 0, bits = 0;
    for (let i = 0; i < n; i++) {
      const c = at(str, i);
      if (c === 61) break;
      const v = c < 128 ? B64_VALUE[c] : -1;
      if (v < 0) continue;
      acc = ((acc << 6) | v) & 0xffffff;
      bits += 6;
      if (bits >= 8) {
        bits -= 8;
        out[p++] = (acc >> bits) & 0xff;
      }
    }
    if (p === size) return out;
    const exact = new Uint8Array(p); // (not slice: it reads the species)
    TypedArraySet(exact, new Uint8Array(TypedArrayBuffer(out), 0, p));
    return exact;
  }

  /* ---- atob / btoa ---- */

  function missingArgs(what) {
    return codedError(TypeErrorCtor, "ERR_MISSING_ARGS", "The \"" + what + "\" argument must be specified");
  }

  function btoa(input) {
    if (arguments.length === 0) throw missingArgs("input");
    const s = StringCtor(input);
    const n = s.length, at = codeUnitReader();
    const bytes = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      const c = at(s, i);
      if (c > 0xff) throw new DOMException("Invalid character", "InvalidCharacterError");
      bytes[i] = c;
    }
    return bytesToBase64(bytes, false);
  }

  // WHATWG forgiving-base64 decode; the result is a "binary string" (one char per byte).
  function atob(input) {
    if (arguments.length === 0) throw missingArgs("input");
    const s = StringCtor(input);
    let significant = 0, equals = 0;
    const at = codeUnitReader();
    for (let i = 0; i < s.length; i++) {
      const c = at(s, i);
      if (c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d || c === 0x20) continue;
      significant++;
      if (c === 61) {
        if (++equals > 2) throw new DOMException("Invalid character", "InvalidCharacterError");
      } else if (c >= 128 || StringIndexOf(B64, s[i]) < 0 || equals) {
        throw new DOMException("Invalid character", "InvalidCharacterError");
      }
    }
    let rest = significant % 4;
    if (rest === 0) rest = (significant - equals) % 4;
    else if (equals) throw new DOMException("Invalid character", "InvalidCharacterError");
    if (rest === 1) throw new DOMException("The string to be decoded is not correctly encoded.", "InvalidCharacterError");
    const bytes = base64ToBytes(s);
    return latin1Decode(bytes, 0, TypedArrayByteLength(bytes), false);
  }

  /* ---- TextEncoder ---- */

  class TextEncoder {
    get encoding() { return "utf-8"; }
    encode(input) {
      return utf8Encode(input === undefined ? "" : StringCtor(input));
    }
    encodeInto(src, dest) {
      if (!(dest instanceof Uint8Array)) throw invalidArgType("dest", "an instance of Uint8Array", dest);
      const r = utf8Write(StringCtor(src), dest, 0, dest.length);
      return { read: r[0], written: r[1] };
    }
  }
  ObjectDefineProperty(TextEncoder.prototype, Symbol.toStringTag, { __proto__: null, value: "TextEncoder", configurable: true });

  /* ---- TextDecoder ---- */

  const LABELS = { __proto__: null };
  const label = (enc, names) => {
    for (let a = 0; a < names.length;) {
      let b = StringIndexOf(names, " ", a);
      if (b < 0) b = names.length;
      LABELS[StringSlice(names, a, b)] = enc;
      a = b + 1;
    }
  };
  label("utf-8", "unicode-1-1-utf-8 unicode11utf8 unicode20utf8 utf-8 utf8 x-unicode20utf8");
  label("utf-16le", "csunicode iso-10646-ucs-2 ucs-2 unicode unicodefeff utf-16 utf-16le");
  label("utf-16be", "unicodefffe utf-16be");
  label("windows-1252", "ansi_x3.4-1968 ascii cp1252 cp819 csisolatin1 ibm819 iso-8859-1 iso-ir-100 iso8859-1 " +
    "iso88591 iso_8859-1 iso_8859-1:1987 l1 latin1 us-ascii windows-1252 x-cp1252");

  function encodingOf(labelText) {
    const raw = StringCtor(labelText);
    const space = (c) => c === 9 || c === 10 || c === 12 || c === 13 || c === 32;
    let a = 0, b = raw.length;
    while (a < b && space(StringCharCodeAt(raw, a))) a++;
    while (b > a && space(StringCharCodeAt(raw, b - 1))) b--;
    const key = StringToLowerCase(StringSlice(raw, a, b));
    if (!ObjectHasOwn(LABELS, key))
      throw codedError(RangeErrorCtor, "ERR_ENCODING_NOT_SUPPORTED", "The \"" + labelText + "\" encoding is not supported");
    return LABELS[key];
  }

  const decoderState = new WeakMap();

  function stateOf(decoder) {
    const st = WeakMapGet(decoderState, decoder);
    if (!st) throw codedError(TypeErrorCtor, "ERR_INVALID_THIS", "Value of \"this\" must be of type TextDecoder");
    return st;
  }

  function decodeUtf16(st, bytes, stream) {
    const big = st.encoding === "utf-16be";
    const { u16, n } = utf16Units(bytes, 0, bytes.length, big);
    let out = 0, i = 0;
    const bad = () => {
      if (st.fatal) throw codedError(TypeError, "ERR_ENCODING_INVALID_ENCODED_DATA", "The encoded data was not valid for encoding " + st.encoding);
      u16[out++] = 0xfffd;
    };
    let pendingFrom = n * 2;
    for (; i < n; i++) {
      const c = u16[i];
      if (c >= 0xd800 && c <= 0xdbff) {
        if (i + 1 < n) {
          const d = u16[i + 1];
          if (d >= 0xdc00 && d <= 0xdfff) { u16[out++] = c; u16[out++] = d; i++; continue; }
          bad();
          continue;
        }
        if (stream) { pendingFrom = i * 2; break; }
        bad();
        continue;
      }
      if (c >= 0xdc00 && c <= 0xdfff) { bad(); continue; }
      u16[out++] = c;
    }
    let text = unitsToString(u16, out);
    if (bytes.length & 1) {
      if (stream) pendingFrom = MathMin(pendingFrom, bytes.length - 1);
      else if (st.fatal) throw codedError(TypeError, "ERR_ENCODING_INVALID_ENCODED_DATA", "The encoded data was not valid for encoding " + st.encoding);
      else text += "\ufffd";
    }
    return { text, pending: pendingFrom };
  }

  class TextDecoder {
    constructor(encoding, options) {
      const enc = encodingOf(encoding === undefined ? "utf-8" : encoding);
      if (options !== undefined && options !== null && typeof options !== "object")
        throw invalidArgType("options", "of type object", options);
      const o = options || { __proto__: null };
      WeakMapSet(decoderState, this, { __proto__: null, encoding: enc, fatal: !!o.fatal, ignoreBOM: !!o.ignoreBOM, pending: null, bomSeen: false });
    }
    get encoding() { return stateOf(this).encoding; }
    get fatal() { return stateOf(this).fatal; }
    get ignoreBOM() { return stateOf(this).ignoreBOM; }
    decode(input, options) {
      const st = stateOf(this);
      let bytes;
      if (input === undefined) bytes = new Uint8Array(0);
      else {
        bytes = bytesOf(input);
        if (bytes === null)
          throw invalidArgType("input", "an instance of ArrayBuffer or ArrayBufferView", input);
      }
      const stream = !!(options && options.stream);
      if (st.pending !== null && st.pending.length) {
        const joined = new Uint8Array(st.pending.length + bytes.length);
        TypedArraySet(joined, st.pending, 0);
        TypedArraySet(joined, bytes, st.pending.length);
        bytes = joined;
      }
      st.pending = null;
      let r;
      try {
        if (st.encoding === "utf-8") r = utf8DecodeRange(bytes, 0, bytes.length, st.fatal, stream);
        else if (st.encoding === "windows-1252") r = { __proto__: null, text: latin1Decode(bytes, 0, bytes.length, true), pending: bytes.length };
        else r = decodeUtf16(st, bytes, stream);
      } catch (e) {
        st.bomSeen = false;
        throw e;
      }
      if (r.pending < bytes.length) st.pending = TypedArraySlice(bytes, r.pending);
      let text = r.text;
      if (st.encoding !== "windows-1252" && !st.ignoreBOM && !st.bomSeen && text.length) {
        st.bomSeen = true;
        if (StringCharCodeAt(text, 0) === 0xfeff) text = StringSlice(text, 1);
      }
      if (!stream) { st.bomSeen = false; st.pending = null; }
      return text;
    }
  }
  ObjectDefineProperty(TextDecoder.prototype, Symbol.toStringTag, { __proto__: null, value: "TextDecoder", configurable: true });

  return ObjectFreeze({
    TextEncoder, TextDecoder, atob, btoa, DOMException,
    // for the other shims
    utf8Encode, utf8Decode, utf8Length, utf8Write, utf8DecodeRange, latin1Decode, utf16Units, unitsToString,
    bytesToBase64, base64ToBytes, bytesOf, codeUnitReader, asBuffer, asciiUpper,
    codedError, invalidArgType, describeReceived, missingArgs,
  });
})
