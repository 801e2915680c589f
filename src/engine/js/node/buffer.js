/* node/buffer.js — node:buffer: Buffer (a Uint8Array whose prototype carries Node's methods),
 * the encodings utf8, utf16le/ucs2, latin1/binary, ascii, hex, base64 and base64url, the integer
 * and float accessors; Blob and File come from internal/blob.
 *
 * Pure computation over guest values. Every buffer is zero-filled (allocUnsafe included: a run must
 * not see stale memory, and it keeps runs deterministic). Sizes are validated before anything is
 * allocated, and the engine meters the allocation itself. */
(function (require, natives, name) {
  "use strict";
  const text = require("internal/text");
  const { codedError, invalidArgType, utf8Length, utf8Write, utf8DecodeRange, latin1Decode, utf16Units, unitsToString,
    bytesToBase64, base64ToBytes } = text;

  // QuickJS caps an ArrayBuffer at 2^31-1 bytes (Node on 64-bit allows 2^32).
  const kMaxLength = 2147483647;
  const kStringMaxLength = 1073741823;
  let INSPECT_MAX_BYTES = 50; // buffer.INSPECT_MAX_BYTES, settable as in Node
  const inspectCustom = Symbol.for("nodejs.util.inspect.custom");

  /* ---- errors ---- */

  function showValue(v) {
    if (typeof v === "string") return "'" + v + "'";
    if (typeof v === "bigint") return String(v) + "n";
    if (Object.is(v, -0)) return "-0";
    if (v instanceof Uint8Array) return "<Buffer " + hexBytes(v, INSPECT_MAX_BYTES) + ">";
    return String(v);
  }

  function outOfRange(what, range, value) {
    let shown;
    if (typeof value === "number" && Number.isInteger(value) && Math.abs(value) > 2 ** 32) shown = groupDigits(String(value));
    else if (typeof value === "bigint") shown = (value > 2n ** 32n || value < -(2n ** 32n) ? groupDigits(String(value)) : String(value)) + "n";
    else shown = showValue(value);
    return codedError(RangeError, "ERR_OUT_OF_RANGE",
      "The value of \"" + what + "\" is out of range. It must be " + range + ". Received " + shown);
  }

  function groupDigits(s) {
    let sign = "";
    if (s[0] === "-") { sign = "-"; s = s.slice(1); }
    let out = "";
    while (s.length > 3) { out = "_" + s.slice(-3) + out; s = s.slice(0, -3); }
    return sign + s + out;
  }

  function outOfBounds(what) {
    return codedError(RangeError, "ERR_BUFFER_OUT_OF_BOUNDS",
      what ? "\"" + what + "\" is outside of buffer bounds" : "Attempt to access memory outside buffer bounds");
  }

  function unknownEncoding(enc) {
    return codedError(TypeError, "ERR_UNKNOWN_ENCODING", "Unknown encoding: " + String(enc));
  }

  function invalidArgValue(what, value) {
    return codedError(TypeError, "ERR_INVALID_ARG_VALUE", "The argument '" + what + "' is invalid. Received " + showValue(value));
  }

  function validateNumber(value, what, min, max) {
    if (typeof value !== "number") throw invalidArgType(what, "of type number", value);
    if ((min !== undefined && value < min) || (max !== undefined && value > max) ||
        ((min !== undefined || max !== undefined) && Number.isNaN(value)))
      throw outOfRange(what, (min !== undefined ? ">= " + min : "") + (min !== undefined && max !== undefined ? " && " : "") +
        (max !== undefined ? "<= " + max : ""), value);
  }

  function validateOffset(value, what, min, max) {
    if (min === undefined) min = 0;
    if (max === undefined) max = kMaxLength;
    if (typeof value !== "number") throw invalidArgType(what, "of type number", value);
    if (!Number.isInteger(value)) throw outOfRange(what, "an integer", value);
    if (value < min || value > max) throw outOfRange(what, ">= " + min + " && <= " + max, value);
  }

  function requireBytes(value, what) {
    if (!(value instanceof Uint8Array)) throw invalidArgType(what, "an instance of Buffer or Uint8Array", value);
  }

  /* ---- encodings ----
   * Each: length(str) → bytes; encode(str) → Uint8Array; write(buf, str, at, max) → bytes written
   * (never a partial character); decode(buf, start, end) → string. */

  function hexBytes(bytes, max) {
    const n = Math.min(bytes.length, max);
    const parts = [];
    for (let i = 0; i < n; i++) parts.push((bytes[i] < 16 ? "0" : "") + bytes[i].toString(16));
    return parts.join(" ");
  }

  function hexValue(c) {
    if (c >= 48 && c <= 57) return c - 48;
    if (c >= 97 && c <= 102) return c - 87;
    if (c >= 65 && c <= 70) return c - 55;
    return -1;
  }

  // Hex pairs until the first invalid one; an odd last digit is ignored.
  function hexWrite(buf, str, at, max) {
    const pairs = Math.min(str.length >> 1, max);
    let i = 0;
    for (; i < pairs; i++) {
      const hi = hexValue(str.charCodeAt(2 * i)), lo = hexValue(str.charCodeAt(2 * i + 1));
      if (hi < 0 || lo < 0) break;
      buf[at + i] = (hi << 4) | lo;
    }
    return i;
  }

  const HEX = "0123456789abcdef";
  function hexDecode(buf, start, end) {
    const n = end - start;
    const u16 = new Uint16Array(Math.max(2 * n, 1));
    for (let i = 0; i < n; i++) {
      const b = buf[start + i];
      u16[2 * i] = HEX.charCodeAt(b >> 4);
      u16[2 * i + 1] = HEX.charCodeAt(b & 15);
    }
    return unitsToString(u16, 2 * n);
  }

  function singleByteWrite(buf, str, at, max) {
    const n = Math.min(str.length, max);
    for (let i = 0; i < n; i++) buf[at + i] = str.charCodeAt(i);
    return n;
  }

  function asciiDecode(buf, start, end) {
    const n = end - start;
    const u16 = new Uint16Array(Math.max(n, 1));
    for (let i = 0; i < n; i++) u16[i] = buf[start + i] & 0x7f;
    return unitsToString(u16, n);
  }

  function utf16Write(buf, str, at, max) {
    const n = Math.min(str.length, max >> 1);
    for (let i = 0; i < n; i++) {
      const c = str.charCodeAt(i);
      buf[at + 2 * i] = c & 0xff;
      buf[at + 2 * i + 1] = c >> 8;
    }
    return 2 * n;
  }

  function base64Length(str) {
    let n = str.length;
    if (n > 0 && str.charCodeAt(n - 1) === 61) n--;
    if (n > 1 && str.charCodeAt(n - 1) === 61) n--;
    return (n * 3) >>> 2;
  }

  function copyInto(buf, bytes, at, max) {
    const n = Math.min(bytes.length, max);
    buf.set(n === bytes.length ? bytes : bytes.subarray(0, n), at);
    return n;
  }

  function encodeWith(write, length) {
    return (str) => {
      const out = new Uint8Array(length(str));
      const n = write(out, str, 0, out.length);
      return n === out.length ? out : out.subarray(0, n);
    };
  }

  const ENCODINGS = {
    utf8: {
      length: utf8Length,
      write: (buf, str, at, max) => utf8Write(str, buf, at, at + max)[1],
      decode: (buf, start, end) => utf8DecodeRange(buf, start, end, false, false).text,
    },
    utf16le: {
      length: (str) => str.length * 2,
      write: utf16Write,
      decode: (buf, start, end) => { const r = utf16Units(buf, start, end, false); return unitsToString(r.u16, r.n); },
    },
    latin1: {
      length: (str) => str.length,
      write: singleByteWrite,
      decode: (buf, start, end) => latin1Decode(buf, start, end, false),
    },
    ascii: {
      length: (str) => str.length,
      write: singleByteWrite,
      decode: asciiDecode,
    },
    hex: {
      length: (str) => str.length >>> 1,
      write: hexWrite,
      decode: hexDecode,
    },
    base64: {
      length: base64Length,
      write: (buf, str, at, max) => copyInto(buf, base64ToBytes(str), at, max),
      decode: (buf, start, end) => bytesToBase64(buf.subarray(start, end), false),
      encode: base64ToBytes,
    },
    base64url: {
      length: base64Length,
      write: (buf, str, at, max) => copyInto(buf, base64ToBytes(str), at, max),
      decode: (buf, start, end) => bytesToBase64(buf.subarray(start, end), true),
      encode: base64ToBytes,
    },
  };
  for (const k of Object.keys(ENCODINGS)) {
    const e = ENCODINGS[k];
    e.name = k;
    if (!e.encode) e.encode = encodeWith(e.write, e.length);
  }
  const ENCODING_NAMES = {
    "utf8": "utf8", "utf-8": "utf8", "ucs2": "utf16le", "ucs-2": "utf16le", "utf16le": "utf16le", "utf-16le": "utf16le",
    "latin1": "latin1", "binary": "latin1", "ascii": "ascii", "hex": "hex", "base64": "base64", "base64url": "base64url",
  };

  // The encoding ops for a name, or undefined.
  function encodingOps(enc) {
    const key = String(enc).toLowerCase();
    return Object.prototype.hasOwnProperty.call(ENCODING_NAMES, key) ? ENCODINGS[ENCODING_NAMES[key]] : undefined;
  }

  function normalizeEncoding(enc) {
    if (enc === undefined || enc === null || enc === "") return "utf8";
    const ops = encodingOps(enc);
    return ops ? ops.name : undefined;
  }

  /* ---- the Buffer type ---- */

  class FastBuffer extends Uint8Array {
    // (size) or (arrayBuffer, byteOffset, length), like Uint8Array.
  }

  function wrap(u8) {
    if (u8 instanceof FastBuffer) return u8;
    return new FastBuffer(u8.buffer, u8.byteOffset, u8.length);
  }

  // Buffer(arg[, encodingOrOffset[, length]]): the deprecated constructor, kept working.
  function Buffer(arg, encodingOrOffset, length) {
    if (typeof arg === "number") {
      if (typeof encodingOrOffset === "string") throw invalidArgType("string", "of type string", arg);
      return Buffer.alloc(arg);
    }
    return Buffer.from(arg, encodingOrOffset, length);
  }
  Object.setPrototypeOf(Buffer, Uint8Array);
  Buffer.prototype = FastBuffer.prototype;
  Object.defineProperty(FastBuffer.prototype, "constructor", { value: Buffer, writable: true, configurable: true });
  const proto = Buffer.prototype;

  function fromString(str, encoding) {
    let ops;
    if (typeof encoding !== "string" || encoding.length === 0) {
      if (str.length === 0) return new FastBuffer(0);
      ops = ENCODINGS.utf8;
    } else {
      ops = encodingOps(encoding);
      if (ops === undefined) throw unknownEncoding(encoding);
      if (str.length === 0) return new FastBuffer(0);
    }
    return wrap(ops.encode(str));
  }

  function fromArrayBuffer(ab, byteOffset, length) {
    if (byteOffset === undefined) byteOffset = 0;
    else {
      byteOffset = +byteOffset;
      if (Number.isNaN(byteOffset)) byteOffset = 0;
    }
    const maxLength = ab.byteLength - byteOffset;
    if (maxLength < 0) throw outOfBounds("offset");
    if (length === undefined) length = maxLength;
    else {
      length = +length;
      if (length > 0) {
        if (length > maxLength) throw outOfBounds("length");
      } else {
        length = 0;
      }
    }
    return new FastBuffer(ab, byteOffset, length);
  }

  function fromArrayLike(obj) {
    const n = obj.length;
    if (n <= 0) return new FastBuffer(0);
    if (n > kMaxLength) throw outOfRange("size", ">= 0 && <= " + kMaxLength, n);
    const b = new FastBuffer(n);
    if (obj instanceof Uint8Array) b.set(obj);
    else for (let i = 0; i < n; i++) b[i] = obj[i];
    return b;
  }

  function isAnyArrayBuffer(v) {
    return v instanceof ArrayBuffer || (typeof SharedArrayBuffer === "function" && v instanceof SharedArrayBuffer);
  }

  function fromObject(obj) {
    if (obj.length !== undefined || isAnyArrayBuffer(obj.buffer)) {
      if (typeof obj.length !== "number") return new FastBuffer(0);
      return fromArrayLike(obj);
    }
    if (obj.type === "Buffer" && Array.isArray(obj.data)) return fromArrayLike(obj.data);
    return undefined;
  }

  function from(value, encodingOrOffset, length) {
    if (typeof value === "string") return fromString(value, encodingOrOffset);
    if (typeof value === "object" && value !== null) {
      if (isAnyArrayBuffer(value)) return fromArrayBuffer(value, encodingOrOffset, length);
      const valueOf = typeof value.valueOf === "function" ? value.valueOf() : undefined;
      if (valueOf != null && valueOf !== value && (typeof valueOf === "string" || typeof valueOf === "object"))
        return from(valueOf, encodingOrOffset, length);
      const b = fromObject(value);
      if (b) return b;
      if (typeof value[Symbol.toPrimitive] === "function") {
        const primitive = value[Symbol.toPrimitive]("string");
        if (typeof primitive === "string") return fromString(primitive, encodingOrOffset);
      }
    }
    // Node words this one differently from its other ERR_INVALID_ARG_TYPE messages.
    throw codedError(TypeError, "ERR_INVALID_ARG_TYPE", "The first argument must be of type string or an instance of " +
      "Buffer, ArrayBuffer, or Array or an Array-like Object." + text.describeReceived(value));
  }

  function alloc(size, fill, encoding) {
    validateNumber(size, "size", 0, kMaxLength);
    const b = new FastBuffer(Math.trunc(size));
    if (fill !== undefined && fill !== 0 && b.length > 0) fillBuffer(b, fill, 0, b.length, encoding);
    return b;
  }

  function allocUnsafe(size) {
    validateNumber(size, "size", 0, kMaxLength);
    return new FastBuffer(Math.trunc(size));
  }

  function byteLength(string, encoding) {
    if (typeof string !== "string") {
      if (ArrayBuffer.isView(string) || isAnyArrayBuffer(string)) return string.byteLength;
      throw invalidArgType("string", "of type string or an instance of Buffer or ArrayBuffer", string);
    }
    const ops = encoding === undefined || encoding === null || encoding === "" ? ENCODINGS.utf8 : encodingOps(encoding) || ENCODINGS.utf8;
    return ops.length(string);
  }

  function concat(list, totalLength) {
    if (!Array.isArray(list)) throw invalidArgType("list", "an instance of Array", list);
    if (list.length === 0) return new FastBuffer(0);
    if (totalLength === undefined) {
      totalLength = 0;
      for (let i = 0; i < list.length; i++) {
        if (!(list[i] instanceof Uint8Array)) throw invalidArgType("list[" + i + "]", "an instance of Buffer or Uint8Array", list[i]);
        totalLength += list[i].length;
      }
    } else {
      validateOffset(totalLength, "length");
    }
    const out = allocUnsafe(totalLength);
    let pos = 0;
    for (let i = 0; i < list.length; i++) {
      const b = list[i];
      if (!(b instanceof Uint8Array)) throw invalidArgType("list[" + i + "]", "an instance of Buffer or Uint8Array", b);
      if (pos >= totalLength) break;
      const n = Math.min(b.length, totalLength - pos);
      out.set(n === b.length ? b : b.subarray(0, n), pos);
      pos += n;
    }
    return out;
  }

  function compareBytes(a, aStart, aEnd, b, bStart, bEnd) {
    const n = Math.min(aEnd - aStart, bEnd - bStart);
    for (let i = 0; i < n; i++) {
      const x = a[aStart + i], y = b[bStart + i];
      if (x !== y) return x < y ? -1 : 1;
    }
    const la = aEnd - aStart, lb = bEnd - bStart;
    return la < lb ? -1 : la > lb ? 1 : 0;
  }

  function compare(buf1, buf2) {
    requireBytes(buf1, "buf1");
    requireBytes(buf2, "buf2");
    if (buf1 === buf2) return 0;
    return compareBytes(buf1, 0, buf1.length, buf2, 0, buf2.length);
  }

  function isEncoding(enc) {
    return typeof enc === "string" && enc.length !== 0 && encodingOps(enc) !== undefined;
  }

  function copyBytesFrom(view, offset, length) {
    if (!ArrayBuffer.isView(view) || view instanceof DataView) throw invalidArgType("view", "an instance of TypedArray", view);
    const size = view.BYTES_PER_ELEMENT;
    let start = 0, end = view.length;
    if (offset !== undefined) {
      validateOffset(offset, "offset", 0);
      if (offset >= view.length) return new FastBuffer(0);
      start = offset;
    }
    if (length !== undefined) {
      validateOffset(length, "length", 0);
      end = Math.min(view.length, start + length);
    }
    if (end <= start) return new FastBuffer(0);
    return wrap(new Uint8Array(view.buffer, view.byteOffset + start * size, (end - start) * size).slice());
  }

  const statics = {
    from, alloc, allocUnsafe, allocUnsafeSlow: allocUnsafe, byteLength, concat, compare, isEncoding, copyBytesFrom,
    isBuffer: (b) => b instanceof Buffer,
  };
  for (const k of Object.keys(statics)) Object.defineProperty(Buffer, k, { value: statics[k], writable: true, configurable: true });
  Buffer.poolSize = 8192;

  /* ---- prototype: conversion ---- */

  function adjustOffset(offset, length) {
    offset = Math.trunc(offset);
    if (offset === 0 || Number.isNaN(offset)) return 0;
    if (offset < 0) {
      offset += length;
      return offset > 0 ? offset : 0;
    }
    return offset < length ? offset : length;
  }

  const methods = {
    toString(encoding, start, end) {
      try {
        return toStringOf(this, arguments.length, encoding, start, end);
      } catch (e) {
        // the engine's own string limit, reported as Node reports it
        if (e instanceof RangeError && e.code === undefined && this.length > kStringMaxLength / 4) {
          throw codedError(Error, "ERR_STRING_TOO_LONG",
            "Cannot create a string longer than 0x" + kStringMaxLength.toString(16) + " characters");
        }
        throw e;
      }
    },

    toJSON() {
      const data = new Array(this.length);
      for (let i = 0; i < this.length; i++) data[i] = this[i];
      return { type: "Buffer", data };
    },

    equals(other) {
      requireBytes(other, "otherBuffer");
      if (this === other) return true;
      if (this.length !== other.length) return false;
      return compareBytes(this, 0, this.length, other, 0, other.length) === 0;
    },

    compare(target, targetStart, targetEnd, sourceStart, sourceEnd) {
      requireBytes(target, "target");
      if (targetStart === undefined) targetStart = 0;
      else validateOffset(targetStart, "targetStart");
      if (targetEnd === undefined) targetEnd = target.length;
      else validateOffset(targetEnd, "targetEnd", 0, target.length);
      if (sourceStart === undefined) sourceStart = 0;
      else validateOffset(sourceStart, "sourceStart");
      if (sourceEnd === undefined) sourceEnd = this.length;
      else validateOffset(sourceEnd, "sourceEnd", 0, this.length);
      if (sourceStart >= sourceEnd) return targetStart >= targetEnd ? 0 : -1;
      if (targetStart >= targetEnd) return 1;
      return compareBytes(this, sourceStart, sourceEnd, target, targetStart, targetEnd);
    },

    subarray(start, end) {
      const len = this.length;
      start = adjustOffset(start, len);
      end = end !== undefined ? adjustOffset(end, len) : len;
      return new FastBuffer(this.buffer, this.byteOffset + start, end > start ? end - start : 0);
    },

    slice(start, end) {
      return methods.subarray.call(this, start, end);
    },

    write(string, offset, length, encoding) {
      if (typeof string !== "string") throw codedError(TypeError, "ERR_INVALID_ARG_TYPE", "argument must be a string");
      if (offset === undefined) return ENCODINGS.utf8.write(this, string, 0, this.length);
      if (length === undefined && typeof offset === "string") {
        encoding = offset;
        length = this.length;
        offset = 0;
      } else {
        validateOffset(offset, "offset", 0, this.length);
        const remaining = this.length - offset;
        if (length === undefined) length = remaining;
        else if (typeof length === "string") { encoding = length; length = remaining; }
        else {
          validateOffset(length, "length", 0, this.length);
          if (length > remaining) length = remaining;
        }
      }
      if (!encoding) return ENCODINGS.utf8.write(this, string, offset, length);
      const ops = encodingOps(encoding);
      if (ops === undefined) throw unknownEncoding(encoding);
      return ops.write(this, string, offset, length);
    },

    fill(value, offset, end, encoding) {
      return fillBuffer(this, value, offset, end, encoding);
    },

    copy(target, targetStart, sourceStart, sourceEnd) {
      requireBytes(target, "target");
      const toInteger = (n, dflt) => {
        n = +n;
        if (!Number.isNaN(n) && n >= Number.MIN_SAFE_INTEGER && n <= Number.MAX_SAFE_INTEGER) return n % 1 === 0 ? n : Math.floor(n);
        return dflt;
      };
      if (targetStart === undefined) targetStart = 0;
      else {
        targetStart = Number.isInteger(targetStart) ? targetStart : toInteger(targetStart, 0);
        if (targetStart < 0) throw outOfRange("targetStart", ">= 0", targetStart);
      }
      if (sourceStart === undefined) sourceStart = 0;
      else {
        sourceStart = Number.isInteger(sourceStart) ? sourceStart : toInteger(sourceStart, 0);
        if (sourceStart < 0 || sourceStart > this.length) throw outOfRange("sourceStart", ">= 0 && <= " + this.length, sourceStart);
      }
      if (sourceEnd === undefined) sourceEnd = this.length;
      else {
        sourceEnd = Number.isInteger(sourceEnd) ? sourceEnd : toInteger(sourceEnd, 0);
        if (sourceEnd < 0) throw outOfRange("sourceEnd", ">= 0", sourceEnd);
      }
      if (targetStart >= target.length || sourceStart >= sourceEnd) return 0;
      if (sourceEnd - sourceStart > target.length - targetStart) sourceEnd = sourceStart + target.length - targetStart;
      let nb = sourceEnd - sourceStart;
      if (nb > this.length - sourceStart) nb = this.length - sourceStart;
      target.set(new Uint8Array(this.buffer, this.byteOffset + sourceStart, nb), targetStart);
      return nb;
    },

    indexOf(value, byteOffset, encoding) { return searchBuffer(this, value, byteOffset, encoding, true); },
    lastIndexOf(value, byteOffset, encoding) { return searchBuffer(this, value, byteOffset, encoding, false); },
    includes(value, byteOffset, encoding) { return searchBuffer(this, value, byteOffset, encoding, true) !== -1; },

    swap16() { return swap(this, 2); },
    swap32() { return swap(this, 4); },
    swap64() { return swap(this, 8); },

    toLocaleString(encoding, start, end) { return methods.toString.apply(this, arguments); },

    [inspectCustom](depth, options) {
      let str = hexBytes(this, INSPECT_MAX_BYTES);
      const remaining = this.length - INSPECT_MAX_BYTES;
      if (remaining > 0) str += " ... " + remaining + " more byte" + (remaining > 1 ? "s" : "");
      const extras = Object.keys(this).filter((k) => !/^\d+$/.test(k));
      if (extras.length && options && typeof options.stylize === "function") {
        const util = require("util");
        const parts = extras.map((k) => k + ": " + util.inspect(this[k], { depth: options.depth === null ? null : (options.depth || 2) - 1 }));
        str += (str ? ", " : "") + parts.join(", ");
      }
      return "<" + this.constructor.name + " " + str + ">";
    },
  };

  function swap(buf, size) {
    if (buf.length % size !== 0)
      throw codedError(RangeError, "ERR_INVALID_BUFFER_SIZE", "Buffer size must be a multiple of " + size * 8 + "-bits");
    for (let i = 0; i < buf.length; i += size) {
      for (let a = i, b = i + size - 1; a < b; a++, b--) {
        const t = buf[a];
        buf[a] = buf[b];
        buf[b] = t;
      }
    }
    return buf;
  }

  function fillBuffer(buf, value, offset, end, encoding) {
    let bytes = null;
    if (typeof value === "string") {
      if (offset === undefined || typeof offset === "string") {
        encoding = offset;
        offset = 0;
        end = buf.length;
      } else if (typeof end === "string") {
        encoding = end;
        end = buf.length;
      }
      const enc = normalizeEncoding(encoding);
      if (enc === undefined) {
        if (typeof encoding !== "string") throw invalidArgType("encoding", "of type string", encoding);
        throw unknownEncoding(encoding);
      }
      if (value.length === 0) value = 0;
      else if (value.length === 1 && enc === "utf8" && value.charCodeAt(0) < 128) value = value.charCodeAt(0);
      else if (value.length === 1 && enc === "latin1") value = value.charCodeAt(0);
      else bytes = ENCODINGS[enc].encode(value);
    } else if (value instanceof Uint8Array) {
      bytes = value;
    } else if (ArrayBuffer.isView(value)) {
      bytes = new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
    } else if (typeof value === "boolean") {
      value = Number(value);
    } else if (typeof value !== "number") {
      value = Number(value) >>> 0;
    }
    if (offset === undefined) {
      offset = 0;
      end = buf.length;
    } else {
      validateOffset(offset, "offset");
      if (end === undefined) end = buf.length;
      else validateOffset(end, "end", 0, buf.length);
      if (offset >= end) return buf;
    }
    if (bytes === null) {
      if (offset > end || end > buf.length) throw outOfBounds();
      Uint8Array.prototype.fill.call(buf, value & 255, offset, end);
      return buf;
    }
    if (bytes.length === 0) throw invalidArgValue("value", value);
    if (end > buf.length) throw outOfBounds();
    if (bytes.buffer === buf.buffer) bytes = bytes.slice();
    for (let at = offset; at < end; at += bytes.length) {
      const n = Math.min(bytes.length, end - at);
      buf.set(n === bytes.length ? bytes : bytes.subarray(0, n), at);
    }
    return buf;
  }

  /* ---- search ---- */

  // Where a search of `needleLength` bytes starts, following Node's rules for odd offsets.
  function searchStart(length, offset, needleLength, forward) {
    if (offset < 0) {
      if (offset + length >= 0) return length + offset;
      if (forward || needleLength === 0) return 0;
      return -1;
    }
    if (offset + needleLength <= length) return offset;
    if (needleLength === 0) return length;
    if (forward) return -1;
    return length - 1;
  }

  function findBytes(hay, needle, start, forward, step) {
    const n = needle.length, last = hay.length - n;
    if (forward) {
      for (let i = start; i <= last; i += step) {
        let j = 0;
        while (j < n && hay[i + j] === needle[j]) j++;
        if (j === n) return i;
      }
    } else {
      for (let i = Math.min(start, last); i >= 0; i--) {
        if (step === 2 && i % 2) continue;
        let j = 0;
        while (j < n && hay[i + j] === needle[j]) j++;
        if (j === n) return i;
      }
    }
    return -1;
  }

  function searchBuffer(buf, value, byteOffset, encoding, forward) {
    if (typeof byteOffset === "string") {
      encoding = byteOffset;
      byteOffset = undefined;
    } else if (byteOffset > 0x7fffffff) byteOffset = 0x7fffffff;
    else if (byteOffset < -0x80000000) byteOffset = -0x80000000;
    byteOffset = +byteOffset;
    if (Number.isNaN(byteOffset)) byteOffset = forward ? 0 : buf.length;
    byteOffset = Math.trunc(byteOffset);
    const len = buf.length;
    if (typeof value === "number") {
      const start = searchStart(len, byteOffset, 1, forward);
      if (start <= -1 || len === 0) return -1;
      const needle = (value >>> 0) & 255;
      if (forward) {
        for (let i = start; i < len; i++) if (buf[i] === needle) return i;
      } else {
        for (let i = start; i >= 0; i--) if (buf[i] === needle) return i;
      }
      return -1;
    }
    const ops = encoding === undefined ? ENCODINGS.utf8 : encodingOps(encoding);
    let needle;
    if (typeof value === "string") {
      if (ops === undefined) throw unknownEncoding(encoding);
      needle = ops.encode(value);
    } else if (value instanceof Uint8Array) {
      needle = value;
    } else {
      throw invalidArgType("value", "one of type number or string or an instance of Buffer or Uint8Array", value);
    }
    const ucs2 = ops !== undefined && ops.name === "utf16le";
    const start = searchStart(len, byteOffset, needle.length, forward);
    if (needle.length === 0) return start;
    if (len === 0 || start <= -1) return -1;
    if ((forward && needle.length + start > len) || needle.length > len) return -1;
    if (ucs2) {
      if (len < 2 || needle.length < 2) return -1;
      return findBytes(buf, needle, forward ? start + (start & 1) : start, forward, 2);
    }
    return findBytes(buf, needle, start, forward, 1);
  }

  function toStringOf(buf, argc, encoding, start, end) {
    const len = buf.length;
    if (argc === 0) return ENCODINGS.utf8.decode(buf, 0, len);
    if (start <= 0) start = 0;
    else if (start >= len) return "";
    else start = Math.trunc(start) || 0;
    if (end === undefined || end > len) end = len;
    else end = Math.trunc(end) || 0;
    if (end <= start) return "";
    if (encoding === undefined) return ENCODINGS.utf8.decode(buf, start, end);
    const ops = encodingOps(encoding);
    if (ops === undefined) throw unknownEncoding(encoding);
    return ops.decode(buf, start, end);
  }

  /* ---- prototype: numbers ---- */

  function checkOffset(buf, offset, size) {
    if (offset === undefined) offset = 0;
    validateNumber(offset, "offset");
    if (!(offset >= 0 && offset + size <= buf.length && Number.isInteger(offset))) boundsError(offset, buf.length - size);
    return offset;
  }

  function boundsError(value, length, what) {
    if (Math.floor(value) !== value) {
      validateNumber(value, what || "offset");
      throw outOfRange(what || "offset", "an integer", value);
    }
    if (length < 0) throw outOfBounds();
    throw outOfRange(what || "offset", ">= " + (what ? 1 : 0) + " and <= " + length, value);
  }

  // the variable-width forms (readIntBE(offset, byteLength)...) have no default offset, as in Node
  function checkByteLength(byteLength, offset) {
    if (byteLength === undefined) throw invalidArgType("byteLength", "of type number", byteLength);
    if (offset === undefined) throw invalidArgType("offset", "of type number", offset);
    if (!(byteLength >= 1 && byteLength <= 6 && Number.isInteger(byteLength))) boundsError(byteLength, 6, "byteLength");
  }

  function readUnsigned(buf, offset, size, little) {
    let v = 0;
    for (let i = 0; i < size; i++) v = v * 256 + buf[offset + (little ? size - 1 - i : i)];
    return v;
  }

  function readSigned(buf, offset, size, little) {
    const v = readUnsigned(buf, offset, size, little);
    const limit = 2 ** (8 * size - 1);
    return v >= limit ? v - 2 * limit : v;
  }

  function intRangeText(min, max, size, big) {
    const n = big ? "n" : "";
    if (size > 4) {
      const bits = size * 8;
      if (min === 0 || min === 0n) return ">= 0" + n + " and < 2" + n + " ** " + bits + n;
      return ">= -(2" + n + " ** " + (bits - 1) + n + ") and < 2" + n + " ** " + (bits - 1) + n;
    }
    return ">= " + min + n + " and <= " + max + n;
  }

  function writeInteger(buf, value, offset, size, little, signed) {
    value = +value;
    if (offset === undefined) offset = 0;
    const max = signed ? 2 ** (8 * size - 1) - 1 : 2 ** (8 * size) - 1;
    const min = signed ? -(2 ** (8 * size - 1)) : 0;
    if (size === 1) validateNumber(offset, "offset"); // Node checks the offset's type first only here
    if (value > max || value < min) throw outOfRange("value", intRangeText(min, max, size, false), value);
    validateNumber(offset, "offset");
    if (!(offset >= 0 && offset + size <= buf.length && Number.isInteger(offset))) boundsError(offset, buf.length - size);
    let v = Number.isNaN(value) ? 0 : Math.trunc(value);
    if (v < 0) v += 2 ** (8 * size);
    for (let i = 0; i < size; i++) {
      const byte = v % 256;
      buf[offset + (little ? i : size - 1 - i)] = byte;
      v = (v - byte) / 256;
    }
    return offset + size;
  }

  const scratch = new DataView(new ArrayBuffer(8));

  function readFloat(buf, offset, size, little) {
    offset = checkOffset(buf, offset, size);
    for (let i = 0; i < size; i++) scratch.setUint8(i, buf[offset + i]);
    return size === 4 ? scratch.getFloat32(0, little) : scratch.getFloat64(0, little);
  }

  function writeFloat(buf, value, offset, size, little) {
    value = +value;
    offset = checkOffset(buf, offset, size);
    if (size === 4) scratch.setFloat32(0, value, little);
    else scratch.setFloat64(0, value, little);
    for (let i = 0; i < size; i++) buf[offset + i] = scratch.getUint8(i);
    return offset + size;
  }

  function readBig(buf, offset, little, signed) {
    offset = checkOffset(buf, offset, 8);
    for (let i = 0; i < 8; i++) scratch.setUint8(i, buf[offset + i]);
    return signed ? scratch.getBigInt64(0, little) : scratch.getBigUint64(0, little);
  }

  function writeBig(buf, value, offset, little, signed) {
    if (typeof value !== "bigint") throw new TypeError("Cannot mix BigInt and other types, use explicit conversions");
    const min = signed ? -(2n ** 63n) : 0n;
    const max = signed ? 2n ** 63n - 1n : 2n ** 64n - 1n;
    if (value > max || value < min) throw outOfRange("value", intRangeText(min, max, 8, true), value);
    offset = checkOffset(buf, offset, 8);
    if (signed) scratch.setBigInt64(0, value, little);
    else scratch.setBigUint64(0, value, little);
    for (let i = 0; i < 8; i++) buf[offset + i] = scratch.getUint8(i);
    return offset + 8;
  }

  const SIZES = [["8", 1], ["16", 2], ["32", 4]];
  for (const [bits, size] of SIZES) {
    const ends = size === 1 ? [["", true]] : [["LE", true], ["BE", false]];
    for (const [suffix, little] of ends) {
      methods["readUInt" + bits + suffix] = function (offset) {
        return readUnsigned(this, checkOffset(this, offset, size), size, little);
      };
      methods["readInt" + bits + suffix] = function (offset) {
        return readSigned(this, checkOffset(this, offset, size), size, little);
      };
      methods["writeUInt" + bits + suffix] = function (value, offset) {
        return writeInteger(this, value, offset, size, little, false);
      };
      methods["writeInt" + bits + suffix] = function (value, offset) {
        return writeInteger(this, value, offset, size, little, true);
      };
    }
  }
  for (const [suffix, little] of [["LE", true], ["BE", false]]) {
    methods["readUInt" + suffix] = function (offset, byteLength) {
      checkByteLength(byteLength, offset);
      return readUnsigned(this, checkOffset(this, offset, byteLength), byteLength, little);
    };
    methods["readInt" + suffix] = function (offset, byteLength) {
      checkByteLength(byteLength, offset);
      return readSigned(this, checkOffset(this, offset, byteLength), byteLength, little);
    };
    methods["writeUInt" + suffix] = function (value, offset, byteLength) {
      checkByteLength(byteLength, offset);
      return writeInteger(this, value, offset, byteLength, little, false);
    };
    methods["writeInt" + suffix] = function (value, offset, byteLength) {
      checkByteLength(byteLength, offset);
      return writeInteger(this, value, offset, byteLength, little, true);
    };
    methods["readFloat" + suffix] = function (offset) { return readFloat(this, offset, 4, little); };
    methods["readDouble" + suffix] = function (offset) { return readFloat(this, offset, 8, little); };
    methods["writeFloat" + suffix] = function (value, offset) { return writeFloat(this, value, offset, 4, little); };
    methods["writeDouble" + suffix] = function (value, offset) { return writeFloat(this, value, offset, 8, little); };
    methods["readBigUInt64" + suffix] = function (offset) { return readBig(this, offset, little, false); };
    methods["readBigInt64" + suffix] = function (offset) { return readBig(this, offset, little, true); };
    methods["writeBigUInt64" + suffix] = function (value, offset) { return writeBig(this, value, offset, little, false); };
    methods["writeBigInt64" + suffix] = function (value, offset) { return writeBig(this, value, offset, little, true); };
  }
  // Node also spells the unsigned accessors with a lower-case "int".
  for (const k of Object.keys(methods)) {
    if (/^(read|write)(Big)?UInt/.test(k)) methods[k.replace("UInt", "Uint")] = methods[k];
  }

  for (const k of Reflect.ownKeys(methods)) {
    Object.defineProperty(proto, k, { value: methods[k], writable: true, configurable: true, enumerable: false });
  }
  // Legacy members Node still has: inspect() is the custom inspector; parent and offset are the
  // backing ArrayBuffer and the byte offset into it (enumerable getters, undefined off a Buffer).
  Object.defineProperty(proto, "inspect", { value: methods[inspectCustom], writable: true, configurable: true, enumerable: false });
  Object.defineProperty(proto, "parent", {
    get() { return this instanceof Buffer ? this.buffer : undefined; }, enumerable: true, configurable: false,
  });
  Object.defineProperty(proto, "offset", {
    get() { return this instanceof Buffer ? this.byteOffset : undefined; }, enumerable: true, configurable: false,
  });
  for (const enc of ["utf8", "latin1", "ascii", "hex", "base64", "base64url", "ucs2", "utf16le"]) {
    const ops = ENCODINGS[ENCODING_NAMES[enc]];
    Object.defineProperty(proto, enc + "Slice", {
      value: function (start, end) { return ops.decode(this, start === undefined ? 0 : start, end === undefined ? this.length : end); },
      writable: true, configurable: true,
    });
    Object.defineProperty(proto, enc + "Write", {
      value: function (str, offset, length) {
        offset = offset === undefined ? 0 : offset;
        return ops.write(this, String(str), offset, length === undefined ? this.length - offset : length);
      },
      writable: true, configurable: true,
    });
  }

  /* ---- module functions ---- */

  function bytesArg(input, what) {
    const b = text.bytesOf(input);
    if (b === null) throw invalidArgType(what, "an instance of ArrayBuffer, Buffer, or TypedArray", input);
    return b;
  }

  function isUtf8(input) {
    const b = bytesArg(input, "input");
    try {
      utf8DecodeRange(b, 0, b.length, true, false);
      return true;
    } catch (_) {
      return false;
    }
  }

  function isAscii(input) {
    const b = bytesArg(input, "input");
    for (let i = 0; i < b.length; i++) if (b[i] > 0x7f) return false;
    return true;
  }

  function transcode(source, fromEnc, toEnc) {
    requireBytes(source, "source");
    const from_ = encodingOps(fromEnc), to = encodingOps(toEnc);
    const supported = (o) => o && (o.name === "utf8" || o.name === "utf16le" || o.name === "latin1" || o.name === "ascii");
    if (!supported(from_) || !supported(to)) {
      const err = new Error("Unable to transcode Buffer [U_ILLEGAL_ARGUMENT_ERROR]");
      err.code = "U_ILLEGAL_ARGUMENT_ERROR";
      throw err;
    }
    let str = from_.decode(source, 0, source.length);
    if (to.name === "latin1" || to.name === "ascii") str = str.replace(/[^\u0000-\u00ff]/g, "?");
    return wrap(to.encode(str));
  }

  function SlowBuffer(size) {
    return allocUnsafe(size);
  }

  /* ---- Blob / File: internal/blob (shared with fetch and FormData) ---- */

  const { Blob, File } = require("internal/blob");

  return Object.freeze({
    Buffer, SlowBuffer, transcode, isUtf8, isAscii, kMaxLength, kStringMaxLength,
    btoa: text.btoa, atob: text.atob,
    constants: Object.freeze({ MAX_LENGTH: kMaxLength, MAX_STRING_LENGTH: kStringMaxLength }),
    get INSPECT_MAX_BYTES() { return INSPECT_MAX_BYTES; },
    set INSPECT_MAX_BYTES(value) {
      validateNumber(value, "INSPECT_MAX_BYTES", 0);
      INSPECT_MAX_BYTES = value;
    },
    Blob, File,
  });
})
