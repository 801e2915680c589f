/* esnext/base64.js — Uint8Array to and from base64 and hex (ES2026): Uint8Array.fromBase64,
 * Uint8Array.fromHex, Uint8Array.prototype.{toBase64, toHex, setFromBase64, setFromHex}.
 *
 * Decoding follows the spec's FromBase64/FromHex step by step (whitespace skipping, the three
 * lastChunkHandling modes, the read/written counts and the bytes decoded before an error). The
 * receiver is checked through the %TypedArray% @@toStringTag getter captured here; bytes are
 * read and written by index, which a typed array never forwards to its prototype.
 *
 * Trusts: lib (esnext/01-lib.js), natives.isDetached (C) and the intrinsics 00-captures.js captured.
 */
(function (lib, natives) {
  "use strict";
  const { call, isObject, createDataProperty, register } = lib;
  const { TypeErrorCtor, SyntaxErrorCtor, Uint8ArrayCtor, TypedArrayTag, TypedArrayLength, TypedArrayBuffer,
    StringCharCodeAt, ObjectCreate } = lib.P;

  const STD = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  const HEX = "0123456789abcdef";
  const decodeTable = ObjectCreate(null); // char code → 6-bit value (standard alphabet)
  for (let i = 0; i < 64; i++) decodeTable[call(StringCharCodeAt, STD, i)] = i;

  // ValidateUint8Array; returns the current length (0 when the buffer is detached).
  function validate(ta) {
    if (call(TypedArrayTag, ta) !== "Uint8Array") throw new TypeErrorCtor("not a Uint8Array");
    return call(TypedArrayLength, ta);
  }
  // A Uint8Array whose buffer was detached reads as length 0; the spec's out-of-bounds check is
  // a TypeError (C: natives.isDetached).
  const isDetached = natives.isDetached;
  function requireAttached(ta, len) {
    if (len === 0 && isDetached(call(TypedArrayBuffer, ta))) throw new TypeErrorCtor("the Uint8Array's buffer is detached");
  }

  // GetOptionsObject
  function optionsOf(options) {
    if (options === undefined) return ObjectCreate(null);
    if (isObject(options)) return options;
    throw new TypeErrorCtor("options must be an object");
  }
  function alphabetOf(opts) {
    let a = opts.alphabet;
    if (a === undefined) a = "base64";
    if (a !== "base64" && a !== "base64url") throw new TypeErrorCtor('alphabet must be "base64" or "base64url"');
    return a;
  }
  function lastChunkOf(opts) {
    let l = opts.lastChunkHandling;
    if (l === undefined) l = "loose";
    if (l !== "loose" && l !== "strict" && l !== "stop-before-partial") {
      throw new TypeErrorCtor('lastChunkHandling must be "loose", "strict" or "stop-before-partial"');
    }
    return l;
  }

  const isAsciiWhite = (c) => c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d || c === 0x20;
  function skipWhite(s, i) {
    while (i < s.length && isAsciiWhite(call(StringCharCodeAt, s, i))) i++;
    return i;
  }

  // bytes: a plain array filled with createDataProperty; returns {read, bytes, error}.
  function push(bytes, b) {
    createDataProperty(bytes, bytes.length, b);
  }
  // Decodes chunk (an array of 2..4 six-bit values); null when strict and the extra bits are set.
  function decodeChunk(bytes, chunk, n, strict) {
    const v = (chunk[0] << 18) | (chunk[1] << 12) | ((n > 2 ? chunk[2] : 0) << 6) | (n > 3 ? chunk[3] : 0);
    const b0 = (v >> 16) & 255;
    const b1 = (v >> 8) & 255;
    const b2 = v & 255;
    if (n === 2) {
      if (strict && b1 !== 0) return false;
      push(bytes, b0);
    } else if (n === 3) {
      if (strict && b2 !== 0) return false;
      push(bytes, b0);
      push(bytes, b1);
    } else {
      push(bytes, b0);
      push(bytes, b1);
      push(bytes, b2);
    }
    return true;
  }
  const syntax = (what) => new SyntaxErrorCtor(what);

  // FromBase64(string, alphabet, lastChunkHandling, maxLength)
  function fromBase64(s, alphabet, last, maxLength) {
    const bytes = [];
    const res = (read, error) => ({ read, bytes, error });
    if (maxLength === 0) return res(0, null);
    let read = 0;
    const chunk = [0, 0, 0, 0];
    let chunkLength = 0;
    let index = 0;
    const length = s.length;
    for (;;) {
      index = skipWhite(s, index);
      if (index === length) {
        if (chunkLength > 0) {
          if (last === "stop-before-partial") return res(read, null);
          if (last === "loose") {
            if (chunkLength === 1) return res(read, syntax("base64 ends with a single character"));
            decodeChunk(bytes, chunk, chunkLength, false);
          } else {
            return res(read, syntax("base64 ends with an incomplete chunk (strict)"));
          }
        }
        return res(length, null);
      }
      let c = call(StringCharCodeAt, s, index);
      index++;
      if (c === 0x3d /* = */) {
        if (chunkLength < 2) return res(read, syntax("misplaced '=' padding in base64"));
        index = skipWhite(s, index);
        if (chunkLength === 2) {
          if (index === length) {
            if (last === "stop-before-partial") return res(read, null);
            return res(read, syntax("incomplete '=' padding in base64"));
          }
          if (call(StringCharCodeAt, s, index) === 0x3d) index = skipWhite(s, index + 1);
        }
        if (index < length) return res(read, syntax("characters after '=' padding in base64"));
        if (!decodeChunk(bytes, chunk, chunkLength, last === "strict")) {
          return res(read, syntax("base64 padding with non-zero extra bits (strict)"));
        }
        return res(length, null);
      }
      if (alphabet === "base64url") {
        if (c === 0x2b || c === 0x2f) return res(read, syntax("'+' or '/' in base64url"));
        if (c === 0x2d) c = 0x2b;
        else if (c === 0x5f) c = 0x2f;
      }
      const d = decodeTable[c];
      if (d === undefined) return res(read, syntax("not a base64 character at index " + (index - 1)));
      const remaining = maxLength - bytes.length;
      if ((remaining === 1 && chunkLength === 2) || (remaining === 2 && chunkLength === 3)) return res(read, null);
      chunk[chunkLength++] = d;
      if (chunkLength === 4) {
        decodeChunk(bytes, chunk, 4, false);
        chunkLength = 0;
        read = index;
        if (bytes.length === maxLength) return res(read, null);
      }
    }
  }

  const hexValue = (c) =>
    c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x57 : c >= 0x41 && c <= 0x46 ? c - 0x37 : -1;
  // FromHex(string, maxLength)
  function fromHex(s, maxLength) {
    const bytes = [];
    const length = s.length;
    let read = 0;
    if (length % 2 !== 0) return { read, bytes, error: syntax("hex string of odd length") };
    while (read < length && bytes.length < maxLength) {
      const hi = hexValue(call(StringCharCodeAt, s, read));
      const lo = hexValue(call(StringCharCodeAt, s, read + 1));
      if (hi < 0 || lo < 0) return { read, bytes, error: syntax("not a hex digit at index " + (hi < 0 ? read : read + 1)) };
      read += 2;
      push(bytes, (hi << 4) | lo);
    }
    return { read, bytes, error: null };
  }

  function toUint8Array(bytes) {
    const n = bytes.length;
    const ta = new Uint8ArrayCtor(n);
    for (let i = 0; i < n; i++) ta[i] = bytes[i];
    return ta;
  }
  function readResult(read, written) {
    const o = {};
    createDataProperty(o, "read", read);
    createDataProperty(o, "written", written);
    return o;
  }

  register("Uint8Array", {
    fromBase64(string, options = undefined) {
      if (typeof string !== "string") throw new TypeErrorCtor("Uint8Array.fromBase64 needs a string");
      const opts = optionsOf(options);
      const alphabet = alphabetOf(opts);
      const last = lastChunkOf(opts);
      const r = fromBase64(string, alphabet, last, 9007199254740991);
      if (r.error !== null) throw r.error;
      return toUint8Array(r.bytes);
    },
    fromHex(string) {
      if (typeof string !== "string") throw new TypeErrorCtor("Uint8Array.fromHex needs a string");
      const r = fromHex(string, 9007199254740991);
      if (r.error !== null) throw r.error;
      return toUint8Array(r.bytes);
    },
  });

  register("Uint8Array.prototype", {
    setFromBase64(string, options = undefined) {
      validate(this);
      if (typeof string !== "string") throw new TypeErrorCtor("setFromBase64 needs a string");
      const opts = optionsOf(options);
      const alphabet = alphabetOf(opts);
      const last = lastChunkOf(opts);
      const len = call(TypedArrayLength, this);
      requireAttached(this, len);
      const r = fromBase64(string, alphabet, last, len);
      const n = r.bytes.length;
      for (let i = 0; i < n; i++) this[i] = r.bytes[i];
      if (r.error !== null) throw r.error;
      return readResult(r.read, n);
    },
    setFromHex(string) {
      validate(this);
      if (typeof string !== "string") throw new TypeErrorCtor("setFromHex needs a string");
      const len = call(TypedArrayLength, this);
      requireAttached(this, len);
      const r = fromHex(string, len);
      const n = r.bytes.length;
      for (let i = 0; i < n; i++) this[i] = r.bytes[i];
      if (r.error !== null) throw r.error;
      return readResult(r.read, n);
    },
    toBase64(options = undefined) {
      validate(this);
      const opts = optionsOf(options);
      const alphabet = alphabetOf(opts);
      const omitPadding = !!opts.omitPadding;
      const len = call(TypedArrayLength, this);
      requireAttached(this, len);
      const table = alphabet === "base64" ? STD : URL;
      let out = "";
      let i = 0;
      for (; i + 2 < len; i += 3) {
        const v = (this[i] << 16) | (this[i + 1] << 8) | this[i + 2];
        out += table[(v >> 18) & 63] + table[(v >> 12) & 63] + table[(v >> 6) & 63] + table[v & 63];
      }
      if (len - i === 1) {
        const v = this[i] << 16;
        out += table[(v >> 18) & 63] + table[(v >> 12) & 63] + (omitPadding ? "" : "==");
      } else if (len - i === 2) {
        const v = (this[i] << 16) | (this[i + 1] << 8);
        out += table[(v >> 18) & 63] + table[(v >> 12) & 63] + table[(v >> 6) & 63] + (omitPadding ? "" : "=");
      }
      return out;
    },
    toHex() {
      validate(this);
      const len = call(TypedArrayLength, this);
      requireAttached(this, len);
      let out = "";
      for (let i = 0; i < len; i++) {
        const b = this[i];
        out += HEX[b >> 4] + HEX[b & 15];
      }
      return out;
    },
  });
})
