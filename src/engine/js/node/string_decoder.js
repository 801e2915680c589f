/* node/string_decoder.js — node:string_decoder: StringDecoder, which turns a stream of byte
 * chunks into text without splitting a character across chunks. Bytes of an incomplete UTF-8
 * sequence, an odd UTF-16 byte and a trailing high surrogate, and the 1–2 bytes short of a base64
 * group are held back until the next write; end() flushes them as Node does (U+FFFD for a
 * truncated UTF-8 character, padded base64, nothing for an odd UTF-16 byte). lastChar, lastNeed
 * and lastTotal show the held character as Node's do.
 *
 * Decoding is internal/decode's (Buffer#toString's text, without Buffer methods); this file decides
 * where a chunk may be cut. Held bytes live in an internal Uint8Array; lastChar is a Buffer, as in
 * Node. Every builtin used was captured before guest code (internal/captures_util). */
(function (require, natives, name) {
  "use strict";
  const { codedError, invalidArgType } = require("internal/captures_util");
  const { Buffer } = require("buffer");
  const { decode, byteLength } = require("internal/decode");
  const C = require("internal/captures_util");
  const { ObjectHasOwn, ObjectDefineProperty, ObjectFreeze, StringCtor, MathMin, SymbolCtor, ArrayBufferIsView, TypeErrorCtor,
    Uint8ArrayCtor, ReflectApply } = C;
  const StringToLowerCase = C.uncurryThis(C.StringPrototypeToLowerCase);
  const TypedArraySet = C.uncurryThis(C.TypedArrayPrototypeSet);
  const typedArrayTag = C.uncurryThis(C.TypedArrayPrototypeGetToStringTag);
  // a Buffer as node:buffer makes one (a Uint8Array with Buffer.prototype), without its methods
  const BufferPrototype = Buffer.prototype;
  const newBuffer = (n) => C.ObjectSetPrototypeOf(new Uint8ArrayCtor(n), BufferPrototype);
  const EMPTY = new Uint8ArrayCtor(0);
  const MathTrunc = (x) => (x < 0 ? -C.MathFloor(-x) : C.MathFloor(x));

  // b[from, to) as a new internal byte array
  function slice(b, from, to) {
    const out = new Uint8ArrayCtor(to - from);
    for (let i = from; i < to; i++) out[i - from] = b[i];
    return out;
  }
  function concat2(a, b) {
    const out = new Uint8ArrayCtor(byteLength(a) + byteLength(b));
    TypedArraySet(out, a, 0);
    TypedArraySet(out, b, byteLength(a));
    return out;
  }

  const ENCODINGS = {
    __proto__: null,
    "utf8": "utf8", "utf-8": "utf8", "ucs2": "utf16le", "ucs-2": "utf16le", "utf16le": "utf16le",
    "utf-16le": "utf16le", "latin1": "latin1", "binary": "latin1", "base64": "base64",
    "base64url": "base64url", "hex": "hex", "ascii": "ascii",
  };
  const kPending = SymbolCtor("kPending");
  const kLast = SymbolCtor("kLast"); // lastChar's 4 bytes: the held bytes written over the old ones

  function normalizeEncoding(enc) {
    if (enc === undefined || enc === null || enc === "") return "utf8";
    const key = StringToLowerCase(StringCtor(enc));
    if (ObjectHasOwn(ENCODINGS, key)) return ENCODINGS[key];
    throw codedError(TypeErrorCtor, "ERR_UNKNOWN_ENCODING", "Unknown encoding: " + enc);
  }

  function utf8Tail(b) {
    const n = byteLength(b);
    for (let i = n - 1; i >= 0 && i >= n - 4; i--) {
      const c = b[i];
      if ((c & 0xc0) === 0x80) continue;
      let need = 0;
      if ((c & 0xe0) === 0xc0) need = 2;
      else if ((c & 0xf0) === 0xe0) need = 3;
      else if ((c & 0xf8) === 0xf0) need = 4;
      return need > n - i ? n - i : 0;
    }
    return 0;
  }

  function tailOf(encoding, b) {
    const n = byteLength(b);
    switch (encoding) {
      case "utf8": return utf8Tail(b);
      case "utf16le": {
        // An odd byte waits for its other half; otherwise a trailing high surrogate waits for its
        // pair (a high surrogate before an odd byte goes out, as in Node 20).
        if (n % 2) return 1;
        return n >= 2 && b[n - 1] >= 0xd8 && b[n - 1] <= 0xdb ? 2 : 0;
      }
      case "base64": case "base64url": return n % 3;
      default: return 0;
    }
  }

  // The bytes of a Buffer, TypedArray or DataView (a Uint8Array, Buffers included, as it is).
  function toBytes(buf) {
    if (ArrayBufferIsView(buf)) {
      if (typedArrayTag(buf) === "Uint8Array") return buf;
      return new Uint8ArrayCtor(buf.buffer, buf.byteOffset, buf.byteLength);
    }
    throw invalidArgType("buf", "an instance of Buffer, TypedArray, or DataView", buf);
  }

  // A function, not a class, so it may be called without `new` (StringDecoder.call(obj) sets obj
  // up), as Node's; its prototype's members are the class's below.
  function StringDecoder(encoding) {
    C.defineValue(this, "encoding", normalizeEncoding(encoding));
    ObjectDefineProperty(this, kPending, { __proto__: null, value: EMPTY, writable: true });
    ObjectDefineProperty(this, kLast, { __proto__: null, value: newBuffer(4) });
  }
  // a decoder's own state, which StringDecoder.prototype itself lacks (ERR_INVALID_THIS, as Node)
  const checkThis = (d) => {
    if (d === null || (typeof d !== "object" && typeof d !== "function") || !ObjectHasOwn(d, kPending)) {
      throw codedError(TypeErrorCtor, "ERR_INVALID_THIS", 'Value of "this" must be of type StringDecoder');
    }
  };

  class Members {
    write(buf) {
      if (typeof buf === "string") return buf;
      let bytes = toBytes(buf);
      checkThis(this);
      let length = byteLength(bytes);
      const pending = this[kPending];
      const held = byteLength(pending);
      if (held > 0) {
        let n = MathMin(this.lastNeed, length, 4 - held);
        if (this.encoding === "utf8") {
          let k = 0;
          while (k < n && (bytes[k] & 0xc0) === 0x80) k++;
          n = k;
        }
        for (let i = 0; i < n; i++) this[kLast][held + i] = bytes[i];
      }
      let head = "";
      let from = 0;
      if (this.encoding === "utf16le" && held > 0) {
        // The held character is completed first, as Node does: a held odd byte becomes one code
        // unit (written out even if it is a high surrogate), a held high surrogate waits for the
        // two bytes of its pair; only then does the rest start afresh.
        const target = held >= 2 ? 4 : 2;
        const take = MathMin(target - held, length);
        const pend = concat2(pending, slice(bytes, 0, take));
        from = take;
        if (held + take < target) {
          this[kPending] = pend;
          for (let i = 0; i < held + take && i < 4; i++) this[kLast][i] = pend[i];
          return "";
        }
        head = decode(pend, "utf16le", 0, byteLength(pend));
        this[kPending] = EMPTY;
      }
      const rest = from === 0 ? bytes : slice(bytes, from, length);
      const all = byteLength(this[kPending]) ? concat2(this[kPending], rest) : rest;
      const total = byteLength(all);
      const keep = tailOf(this.encoding, all);
      this[kPending] = slice(all, total - keep, total);
      for (let i = 0; i < keep && i < 4; i++) this[kLast][i] = this[kPending][i];
      return head + decode(all, this.encoding, 0, total - keep);
    }

    end(buf) {
      let text = buf === undefined ? "" : this.write(buf);
      const rest = this[kPending];
      const n = byteLength(rest);
      this[kPending] = EMPTY;
      if (n === 0) return text;
      // the held bytes decoded as they are: one U+FFFD for a truncated character, more when they
      // were never a character's start (e0 90: two), as Node and Buffer#toString give
      if (this.encoding === "utf8") return text + decode(rest, "utf8", 0, n);
      if (this.encoding === "utf16le") return text + decode(rest, "utf16le", 0, n - (n % 2));
      return text + decode(rest, this.encoding, 0, n);
    }

    text(buf, offset) {
      this[kPending] = EMPTY;
      const bytes = toBytes(buf);
      const n = byteLength(bytes);
      let from = offset === undefined ? 0 : MathTrunc(offset) || 0;
      if (from < 0) from = from + n < 0 ? 0 : from + n;
      return this.write(slice(bytes, from > n ? n : from, n));
    }

    get lastNeed() {
      const p = this[kPending];
      const n = byteLength(p);
      if (n === 0) return 0;
      if (this.encoding === "utf8") {
        const c = p[0];
        const total = (c & 0xe0) === 0xc0 ? 2 : (c & 0xf0) === 0xe0 ? 3 : 4;
        return total - n;
      }
      if (this.encoding === "utf16le") return n % 2 ? 1 : 2;
      return 3 - n;
    }

    get lastTotal() {
      const n = byteLength(this[kPending]);
      return n === 0 ? 0 : n + this.lastNeed;
    }

    get lastChar() {
      return this[kLast];
    }
  }

  const memberNames = C.ReflectOwnKeys(Members.prototype);
  for (let i = 0; i < memberNames.length; i++) {
    if (memberNames[i] === "constructor") continue;
    const d = C.ObjectGetOwnPropertyDescriptor(Members.prototype, memberNames[i]);
    C.ObjectSetPrototypeOf(d, null); // no field inherited from a guest's Object.prototype
    ObjectDefineProperty(StringDecoder.prototype, memberNames[i], d);
  }

  return ObjectFreeze({ StringDecoder });
})
