/* node/string_decoder.js — node:string_decoder: StringDecoder, which turns a stream of byte
 * chunks into text without splitting a character across chunks. Bytes of an incomplete UTF-8
 * sequence, an odd UTF-16 byte (or, on an even cut, a trailing high surrogate), and the 1–2 bytes short of a base64
 * group are held back until the next write; end() flushes them as Node does (U+FFFD for a
 * truncated UTF-8 character, padded base64, nothing for an odd UTF-16 byte). lastChar, lastNeed
 * and lastTotal show the held character as Node's do.
 *
 * Decoding itself is Buffer#toString; this file only decides where a chunk may be cut. */
(function (require, natives, name) {
  "use strict";
  const { codedError, invalidArgType } = require("internal/text");
  const { Buffer } = require("buffer");
  // builtins captured before guest code (primordials.js, internal/captures_util); the Buffers
  // themselves are node:buffer's, and their methods that module's
  const C = require("internal/captures_util");
  const { ObjectHasOwn, ObjectDefineProperty, ObjectFreeze, StringCtor, MathMin, SymbolCtor, ArrayBufferIsView, TypeErrorCtor } = C;
  const StringToLowerCase = C.uncurryThis(C.StringPrototypeToLowerCase);

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

  // How many bytes at the end of `b` begin a character that is not complete yet.
  function utf8Tail(b) {
    const n = b.length;
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
    switch (encoding) {
      case "utf8": return utf8Tail(b);
      case "utf16le": {
        // An odd byte is all that waits (a high surrogate before it goes out alone, as in Node);
        // otherwise a trailing high surrogate waits for its pair.
        if (b.length % 2) return 1;
        return b.length >= 2 && b[b.length - 1] >= 0xd8 && b[b.length - 1] <= 0xdb ? 2 : 0;
      }
      case "base64": case "base64url": return b.length % 3;
      default: return 0;
    }
  }

  function toBytes(buf) {
    if (Buffer.isBuffer(buf)) return buf;
    if (ArrayBufferIsView(buf)) return Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
    throw invalidArgType("buf", "an instance of Buffer, TypedArray, or DataView", buf);
  }

  class StringDecoder {
    constructor(encoding) {
      this.encoding = normalizeEncoding(encoding);
      ObjectDefineProperty(this, kPending, { __proto__: null, value: Buffer.alloc(0), writable: true });
      ObjectDefineProperty(this, kLast, { __proto__: null, value: Buffer.alloc(4) });
    }

    write(buf) {
      if (typeof buf === "string") return buf;
      let bytes = toBytes(buf);
      const held = this[kPending].length;
      if (held > 0) {
        // the bytes that go on completing the held character (for UTF-8, only continuation bytes)
        let n = MathMin(this.lastNeed, bytes.length, 4 - held);
        if (this.encoding === "utf8") {
          let k = 0;
          while (k < n && (bytes[k] & 0xc0) === 0x80) k++;
          n = k;
        }
        this[kLast].set(bytes.subarray(0, n), held);
      }
      let head = "";
      if (this.encoding === "utf16le" && this[kPending].length === 1 && bytes.length > 0) {
        // Node completes a held odd byte into its code unit and emits it as is, even when it is
        // a high surrogate; only the rest of the chunk is cut at a surrogate.
        head = Buffer.from([this[kPending][0], bytes[0]]).toString("utf16le");
        this[kPending] = Buffer.alloc(0);
        bytes = bytes.subarray(1);
      }
      const all = this[kPending].length ? Buffer.concat([this[kPending], bytes]) : bytes;
      const keep = tailOf(this.encoding, all);
      this[kPending] = Buffer.from(all.subarray(all.length - keep));
      this[kLast].set(this[kPending].subarray(0, 4));
      return head + all.toString(this.encoding, 0, all.length - keep);
    }

    end(buf) {
      let text = buf === undefined ? "" : this.write(buf);
      const rest = this[kPending];
      this[kPending] = Buffer.alloc(0);
      if (rest.length === 0) return text;
      if (this.encoding === "utf8") return text + "\ufffd";
      if (this.encoding === "utf16le") return text + rest.toString("utf16le", 0, rest.length - (rest.length % 2));
      return text + rest.toString(this.encoding);
    }

    text(buf, offset) {
      this[kPending] = Buffer.alloc(0);
      return this.write(toBytes(buf).subarray(offset));
    }

    get lastNeed() {
      const p = this[kPending];
      if (p.length === 0) return 0;
      if (this.encoding === "utf8") {
        const c = p[0];
        const total = (c & 0xe0) === 0xc0 ? 2 : (c & 0xf0) === 0xe0 ? 3 : 4;
        return total - p.length;
      }
      if (this.encoding === "utf16le") return p.length % 2 ? 1 : 2;
      return 3 - p.length;
    }

    // As Node: the bytes of the character being completed (stale bytes stay after it), how many
    // it has in all (0 when none is pending).
    get lastTotal() {
      const p = this[kPending];
      return p.length === 0 ? 0 : p.length + this.lastNeed;
    }

    get lastChar() {
      return this[kLast];
    }
  }

  return ObjectFreeze({ StringDecoder });
})
