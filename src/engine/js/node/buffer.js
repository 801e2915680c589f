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
    bytesToBase64, base64ToBytes, codeUnitReader } = text;

  // Builtins captured before guest code ran (natives.primordials, docs/primordials.md): the shim's
  // own paths call no %TypedArray%.prototype method or getter, String/Number/Math/Object/Array
  // static or prototype method, DataView method or RegExp method as the guest may have left it.
  // Views and copies are made with the captured constructor (subarray and slice would read the
  // species through the view's `constructor`), `instanceof` is the captured
  // Function.prototype[Symbol.hasInstance], and the module's own objects have no prototype.
  const P = natives.primordials;
  // primordials.js's shims1 and streams arrays, read by index (their order is fixed; the names
  // are those of internal/captures_util.js and internal/webstreams.js' SP)
  const S1 = P.shims1, SA = P.streams;
  if (S1.length !== 79 || SA.length !== 24)
    throw new P.ErrorCtor("node:buffer: primordials.js's shims1 or streams array changed length; update the indexes in node/buffer.js");
  const u = P.uncurryThis;
  const { ReflectApply, ReflectOwnKeys, ObjectDefineProperty, ObjectSetPrototypeOf, ObjectGetPrototypeOf, ObjectKeys,
    ObjectHasOwn, ObjectFreeze, ArrayIsArray, StringCtor, NumberCtor, ErrorCtor, TypeErrorCtor, MathFloor,
    NumberIsInteger, ArrayBufferIsView, defineValue, list } = P;
  const NumberIsNaN = S1[23], MathMin = S1[37], SymbolFor = S1[34], ArrayBufferCtor = S1[52];
  const SharedArrayBufferCtor = S1[55], DataViewCtor = S1[57], Uint8ArrayCtor = S1[60], RangeErrorCtor = S1[62];
  const SymbolToPrimitive = S1[33].toPrimitive; // Symbol.toPrimitive: non-writable, non-configurable
  const ArrayPrototype = ObjectGetPrototypeOf([]);
  const HasInstance = u(S1[2]); // Function.prototype[Symbol.hasInstance]: instanceof without the guest's hook
  const TypedArrayLength = u(S1[78]), TypedArrayTag = u(S1[59]); // %TypedArray%.prototype's length, @@toStringTag
  const TypedArrayBuffer = u(SA[20]), TypedArrayByteOffset = u(SA[21]), TypedArrayByteLength = u(SA[22]);
  const TypedArraySet = u(P.TypedArrayPrototypeSet), TypedArrayFill = u(P.TypedArrayPrototypeFill);
  const ArrayBufferByteLength = u(SA[15]);
  const SharedArrayBufferByteLength = SharedArrayBufferCtor === undefined ? null : u(S1[56]);
  const DataViewByteLength = u(S1[58]);
  const StringSlice = u(P.StringPrototypeSlice), StringIndexOf = u(P.StringPrototypeIndexOf);
  const StringToLowerCase = u(P.StringPrototypeToLowerCase), StringCharCodeAt = u(P.StringPrototypeCharCodeAt);
  const NumberToString = u(P.NumberPrototypeToString);
  // Math.trunc and Math.abs as arithmetic (the argument converted once, as they convert it)
  const MathTrunc = (x) => { x = +x; return x < 0 ? -MathFloor(-x) : MathFloor(x); };
  // The typed-array constructors beyond Uint8Array, read from the global object when this module
  // loads (as internal/text reads them; docs/primordials.md: global bindings are not covered).
  const Uint16ArrayCtor = Uint16Array, Float32ArrayCtor = Float32Array, Float64ArrayCtor = Float64Array;
  const BigInt64ArrayCtor = BigInt64Array, BigUint64ArrayCtor = BigUint64Array;

  const isUint8Array = (v) => HasInstance(Uint8ArrayCtor, v);
  const isTypedArray = (v) => TypedArrayTag(v) !== undefined;
  // bytes [start, end) of a Uint8Array as a new view (never subarray: it reads the species)
  const view = (u8, start, end) => new Uint8ArrayCtor(TypedArrayBuffer(u8), TypedArrayByteOffset(u8) + start, end - start);
  // a copy of a Uint8Array's bytes with its own ArrayBuffer (never slice: it reads the species)
  function copyOf(u8) {
    const out = new Uint8ArrayCtor(TypedArrayLength(u8));
    TypedArraySet(out, u8);
    return out;
  }
  // by the engine's brand (the byteLength getter refuses anything else), once instanceof says so:
  // an object that merely inherits from ArrayBuffer.prototype is none
  const hasBrand = (getter, v) => { try { getter(v); return true; } catch (_) { return false; } };
  function isAnyArrayBuffer(v) {
    if (HasInstance(ArrayBufferCtor, v)) return hasBrand(ArrayBufferByteLength, v);
    return SharedArrayBufferCtor !== undefined && HasInstance(SharedArrayBufferCtor, v) && hasBrand(SharedArrayBufferByteLength, v);
  }
  const anyArrayBufferByteLength = (ab) => (HasInstance(ArrayBufferCtor, ab) ? ArrayBufferByteLength(ab) : SharedArrayBufferByteLength(ab));
  // the byteLength of any ArrayBuffer view
  const viewByteLength = (v) => (HasInstance(DataViewCtor, v) ? DataViewByteLength(v) : TypedArrayByteLength(v));

  // QuickJS caps an ArrayBuffer at 2^31-1 bytes (Node on 64-bit allows 2^32).
  const kMaxLength = 2147483647;
  const kStringMaxLength = 1073741823;
  let INSPECT_MAX_BYTES = 50; // buffer.INSPECT_MAX_BYTES, settable as in Node
  const inspectCustom = SymbolFor("nodejs.util.inspect.custom");

  /* ---- errors ---- */

  function showValue(v) {
    if (typeof v === "string") return "'" + v + "'";
    if (typeof v === "bigint") return StringCtor(v) + "n";
    if (v === 0 && 1 / v < 0) return "-0";
    if (isUint8Array(v)) return "<Buffer " + hexBytes(v, INSPECT_MAX_BYTES) + ">";
    return StringCtor(v);
  }

  function outOfRange(what, range, value) {
    let shown;
    if (typeof value === "number" && NumberIsInteger(value) && (value < 0 ? -value : value) > 2 ** 32) shown = groupDigits(StringCtor(value));
    else if (typeof value === "bigint") shown = (value > 2n ** 32n || value < -(2n ** 32n) ? groupDigits(StringCtor(value)) : StringCtor(value)) + "n";
    else shown = showValue(value);
    return codedError(RangeErrorCtor, "ERR_OUT_OF_RANGE",
      "The value of \"" + what + "\" is out of range. It must be " + range + ". Received " + shown);
  }

  function groupDigits(s) {
    let sign = "";
    if (s[0] === "-") { sign = "-"; s = StringSlice(s, 1); }
    let out = "";
    while (s.length > 3) { out = "_" + StringSlice(s, -3) + out; s = StringSlice(s, 0, -3); }
    return sign + s + out;
  }

  function outOfBounds(what) {
    return codedError(RangeErrorCtor, "ERR_BUFFER_OUT_OF_BOUNDS",
      what ? "\"" + what + "\" is outside of buffer bounds" : "Attempt to access memory outside buffer bounds");
  }

  function unknownEncoding(enc) {
    return codedError(TypeErrorCtor, "ERR_UNKNOWN_ENCODING", "Unknown encoding: " + StringCtor(enc));
  }

  function invalidArgValue(what, value) {
    return codedError(TypeErrorCtor, "ERR_INVALID_ARG_VALUE", "The argument '" + what + "' is invalid. Received " + showValue(value));
  }

  function validateNumber(value, what, min, max) {
    if (typeof value !== "number") throw invalidArgType(what, "of type number", value);
    if ((min !== undefined && value < min) || (max !== undefined && value > max) ||
        ((min !== undefined || max !== undefined) && NumberIsNaN(value)))
      throw outOfRange(what, (min !== undefined ? ">= " + min : "") + (min !== undefined && max !== undefined ? " && " : "") +
        (max !== undefined ? "<= " + max : ""), value);
  }

  function validateOffset(value, what, min, max) {
    if (min === undefined) min = 0;
    if (max === undefined) max = kMaxLength;
    if (typeof value !== "number") throw invalidArgType(what, "of type number", value);
    if (!NumberIsInteger(value)) throw outOfRange(what, "an integer", value);
    if (value < min || value > max) throw outOfRange(what, ">= " + min + " && <= " + max, value);
  }

  function requireBytes(value, what) {
    if (!isUint8Array(value)) throw invalidArgType(what, "an instance of Buffer or Uint8Array", value);
  }

  /* ---- encodings ----
   * Each: length(str) → bytes; encode(str) → Uint8Array; write(buf, str, at, max) → bytes written
   * (never a partial character); decode(buf, start, end) → string. */

  const HEX = "0123456789abcdef";
  function hexBytes(bytes, max) {
    const n = MathMin(TypedArrayLength(bytes), max);
    let out = "";
    for (let i = 0; i < n; i++) {
      const b = bytes[i];
      out += (i > 0 ? " " : "") + HEX[b >> 4] + HEX[b & 15];
    }
    return out;
  }

  function hexValue(c) {
    if (c >= 48 && c <= 57) return c - 48;
    if (c >= 97 && c <= 102) return c - 87;
    if (c >= 65 && c <= 70) return c - 55;
    return -1;
  }

  // Hex pairs until the first invalid one; an odd last digit is ignored.
  function hexWrite(buf, str, at, max) {
    const pairs = MathMin(str.length >> 1, max), cu = codeUnitReader();
    let i = 0;
    for (; i < pairs; i++) {
      const hi = hexValue(cu(str, 2 * i)), lo = hexValue(cu(str, 2 * i + 1));
      if (hi < 0 || lo < 0) break;
      buf[at + i] = (hi << 4) | lo;
    }
    return i;
  }

  const HEX_CODES = new Uint8ArrayCtor(16);
  for (let i = 0; i < 16; i++) HEX_CODES[i] = StringCharCodeAt(HEX, i);
  function hexDecode(buf, start, end) {
    const n = end - start;
    const u16 = new Uint16ArrayCtor(n > 0 ? 2 * n : 1);
    for (let i = 0; i < n; i++) {
      const b = buf[start + i];
      u16[2 * i] = HEX_CODES[b >> 4];
      u16[2 * i + 1] = HEX_CODES[b & 15];
    }
    return unitsToString(u16, 2 * n);
  }

  function singleByteWrite(buf, str, at, max) {
    const n = MathMin(str.length, max), cu = codeUnitReader();
    for (let i = 0; i < n; i++) buf[at + i] = cu(str, i);
    return n;
  }

  function asciiDecode(buf, start, end) {
    const n = end - start;
    const u16 = new Uint16ArrayCtor(n > 0 ? n : 1);
    for (let i = 0; i < n; i++) u16[i] = buf[start + i] & 0x7f;
    return unitsToString(u16, n);
  }

  function utf16Write(buf, str, at, max) {
    const n = MathMin(str.length, max >> 1), cu = codeUnitReader();
    for (let i = 0; i < n; i++) {
      const c = cu(str, i);
      buf[at + 2 * i] = c & 0xff;
      buf[at + 2 * i + 1] = c >> 8;
    }
    return 2 * n;
  }

  function base64Length(str) {
    let n = str.length;
    if (n > 0 && StringCharCodeAt(str, n - 1) === 61) n--;
    if (n > 1 && StringCharCodeAt(str, n - 1) === 61) n--;
    return (n * 3) >>> 2;
  }

  function copyInto(buf, bytes, at, max) {
    const len = TypedArrayLength(bytes);
    const n = MathMin(len, max);
    TypedArraySet(buf, n === len ? bytes : view(bytes, 0, n), at);
    return n;
  }

  function encodeWith(write, length) {
    return (str) => {
      const size = length(str);
      const out = new Uint8ArrayCtor(size);
      const n = write(out, str, 0, size);
      return n === size ? out : view(out, 0, n);
    };
  }

  const ENCODINGS = {
    __proto__: null,
    utf8: {
      __proto__: null,
      length: utf8Length,
      write: (buf, str, at, max) => utf8Write(str, buf, at, at + max)[1],
      decode: (buf, start, end) => utf8DecodeRange(buf, start, end, false, false).text,
    },
    utf16le: {
      __proto__: null,
      length: (str) => str.length * 2,
      write: utf16Write,
      decode: (buf, start, end) => { const r = utf16Units(buf, start, end, false); return unitsToString(r.u16, r.n); },
    },
    latin1: {
      __proto__: null,
      length: (str) => str.length,
      write: singleByteWrite,
      decode: (buf, start, end) => latin1Decode(buf, start, end, false),
    },
    ascii: {
      __proto__: null,
      length: (str) => str.length,
      write: singleByteWrite,
      decode: asciiDecode,
    },
    hex: {
      __proto__: null,
      length: (str) => str.length >>> 1,
      write: hexWrite,
      decode: hexDecode,
    },
    base64: {
      __proto__: null,
      length: base64Length,
      write: (buf, str, at, max) => copyInto(buf, base64ToBytes(str), at, max),
      decode: (buf, start, end) => bytesToBase64(view(buf, start, end), false),
      encode: base64ToBytes,
    },
    base64url: {
      __proto__: null,
      length: base64Length,
      write: (buf, str, at, max) => copyInto(buf, base64ToBytes(str), at, max),
      decode: (buf, start, end) => bytesToBase64(view(buf, start, end), true),
      encode: base64ToBytes,
    },
  };
  const encodingKeys = ObjectKeys(ENCODINGS);
  for (let i = 0; i < encodingKeys.length; i++) {
    const e = ENCODINGS[encodingKeys[i]];
    e.name = encodingKeys[i];
    if (!e.encode) e.encode = encodeWith(e.write, e.length);
  }
  const ENCODING_NAMES = {
    __proto__: null,
    "utf8": "utf8", "utf-8": "utf8", "ucs2": "utf16le", "ucs-2": "utf16le", "utf16le": "utf16le", "utf-16le": "utf16le",
    "latin1": "latin1", "binary": "latin1", "ascii": "ascii", "hex": "hex", "base64": "base64", "base64url": "base64url",
  };

  // The encoding ops for a name, or undefined.
  function encodingOps(enc) {
    const key = StringToLowerCase(StringCtor(enc));
    return ObjectHasOwn(ENCODING_NAMES, key) ? ENCODINGS[ENCODING_NAMES[key]] : undefined;
  }

  function normalizeEncoding(enc) {
    if (enc === undefined || enc === null || enc === "") return "utf8";
    const ops = encodingOps(enc);
    return ops ? ops.name : undefined;
  }

  /* ---- the Buffer type ---- */

  class FastBuffer extends Uint8ArrayCtor {
    // (size) or (arrayBuffer, byteOffset, length), like Uint8Array.
  }
  const isBuffer = (v) => HasInstance(FastBuffer, v); // FastBuffer.prototype is Buffer.prototype, fixed

  function wrap(u8) {
    if (isBuffer(u8)) return u8;
    return new FastBuffer(TypedArrayBuffer(u8), TypedArrayByteOffset(u8), TypedArrayLength(u8));
  }

  // DEP0005 as Node emits it: the first call of the deprecated Buffer() made by code outside
  // node_modules warns, once per run (a package's own calls never do). The caller is the first
  // frame of a new stack that has a file location (this file's frames have none).
  let bufferCtorWarned = false, bufferCtorChecks = 0;
  function callerInNodeModules() {
    let stack;
    try { stack = new ErrorCtor().stack; } catch (_) { return false; }
    if (typeof stack !== "string") return false;
    let at = 0;
    while (at < stack.length) {
      let end = StringIndexOf(stack, "\n", at);
      if (end < 0) end = stack.length;
      const line = StringSlice(stack, at, end);
      const open = StringIndexOf(line, "(");
      if (open >= 0 && StringIndexOf(line, ":", open) > open) {
        return StringIndexOf(StringSlice(line, open + 1), "node_modules/") >= 0;
      }
      at = end + 1;
    }
    return false;
  }
  function warnBufferCtor() {
    // each check makes a stack: after 10,000 calls from packages, as Node, stop looking
    if (bufferCtorWarned || ++bufferCtorChecks > 10000 || callerInNodeModules()) return;
    bufferCtorWarned = true;
    const proc = globalThis.process;
    if (proc && typeof proc.emitWarning === "function") {
      proc.emitWarning("Buffer() is deprecated due to security and usability issues. Please use the " +
        "Buffer.alloc(), Buffer.allocUnsafe(), or Buffer.from() methods instead.", "DeprecationWarning", "DEP0005");
    }
  }

  // Buffer(arg[, encodingOrOffset[, length]]): the deprecated constructor, kept working.
  function Buffer(arg, encodingOrOffset, length) {
    warnBufferCtor();
    if (typeof arg === "number") {
      if (typeof encodingOrOffset === "string") throw invalidArgType("string", "of type string", arg);
      return alloc(arg);
    }
    return from(arg, encodingOrOffset, length);
  }
  ObjectSetPrototypeOf(Buffer, Uint8ArrayCtor);
  Buffer.prototype = FastBuffer.prototype; // an own data property of the function: no setter runs
  ObjectDefineProperty(FastBuffer.prototype, "constructor", { __proto__: null, value: Buffer, writable: true, configurable: true });
  const proto = FastBuffer.prototype;

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
      if (NumberIsNaN(byteOffset)) byteOffset = 0;
    }
    const maxLength = anyArrayBufferByteLength(ab) - byteOffset;
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

  // A guest's array-like of n elements (a typed array's n read through the captured getter).
  function fromArrayLike(obj, n) {
    if (n <= 0) return new FastBuffer(0);
    if (n > kMaxLength) throw outOfRange("size", ">= 0 && <= " + kMaxLength, n);
    const b = new FastBuffer(n);
    if (isUint8Array(obj)) TypedArraySet(b, obj);
    else for (let i = 0; i < n; i++) b[i] = obj[i];
    return b;
  }

  function fromObject(obj) {
    if (isTypedArray(obj)) return fromArrayLike(obj, TypedArrayLength(obj));
    if (obj.length !== undefined || isAnyArrayBuffer(obj.buffer)) {
      if (typeof obj.length !== "number") return new FastBuffer(0);
      return fromArrayLike(obj, obj.length);
    }
    if (obj.type === "Buffer" && ArrayIsArray(obj.data)) return fromArrayLike(obj.data, obj.data.length);
    return undefined;
  }

  function from(value, encodingOrOffset, length) {
    if (typeof value === "string") return fromString(value, encodingOrOffset);
    if (typeof value === "object" && value !== null) {
      if (isAnyArrayBuffer(value)) return fromArrayBuffer(value, encodingOrOffset, length);
      // the guest's own valueOf, as Node reads it
      const valueOf = typeof value.valueOf === "function" ? value.valueOf() : undefined;
      if (valueOf != null && valueOf !== value && (typeof valueOf === "string" || typeof valueOf === "object"))
        return from(valueOf, encodingOrOffset, length);
      const b = fromObject(value);
      if (b) return b;
      if (typeof value[SymbolToPrimitive] === "function") {
        const primitive = value[SymbolToPrimitive]("string");
        if (typeof primitive === "string") return fromString(primitive, encodingOrOffset);
      }
    }
    // Node words this one differently from its other ERR_INVALID_ARG_TYPE messages.
    throw codedError(TypeErrorCtor, "ERR_INVALID_ARG_TYPE", "The first argument must be of type string or an instance of " +
      "Buffer, ArrayBuffer, or Array or an Array-like Object." + text.describeReceived(value));
  }

  // A size within kMaxLength but over the run's single-allocation cap (CHIDORI_JS_MAX_ALLOC_MB) is
  // refused before anything is allocated, with the RangeError Node throws when it cannot get the
  // memory: the agent may catch it, where the engine's own refusal would end the run.
  const allocAllowed = natives.allocFits;
  function checkAllocation(n) {
    if (!allocAllowed(n)) throw new RangeErrorCtor("Array buffer allocation failed");
  }

  function alloc(size, fill, encoding) {
    validateNumber(size, "size", 0, kMaxLength);
    const n = MathTrunc(size);
    checkAllocation(n);
    const b = new FastBuffer(n);
    if (fill !== undefined && fill !== 0 && n > 0) fillBuffer(b, fill, 0, n, encoding);
    return b;
  }

  function allocUnsafe(size) {
    validateNumber(size, "size", 0, kMaxLength);
    checkAllocation(MathTrunc(size));
    return new FastBuffer(MathTrunc(size));
  }

  function byteLength(string, encoding) {
    if (typeof string !== "string") {
      if (ArrayBufferIsView(string)) return viewByteLength(string);
      if (isAnyArrayBuffer(string)) return anyArrayBufferByteLength(string);
      throw invalidArgType("string", "of type string or an instance of Buffer or ArrayBuffer", string);
    }
    const ops = encoding === undefined || encoding === null || encoding === "" ? ENCODINGS.utf8 : encodingOps(encoding) || ENCODINGS.utf8;
    return ops.length(string);
  }

  function concat(list, totalLength) {
    if (!ArrayIsArray(list)) throw invalidArgType("list", "an instance of Array", list);
    if (list.length === 0) return new FastBuffer(0);
    if (totalLength === undefined) {
      totalLength = 0;
      for (let i = 0; i < list.length; i++) {
        if (!isUint8Array(list[i])) throw invalidArgType("list[" + i + "]", "an instance of Buffer or Uint8Array", list[i]);
        totalLength += TypedArrayLength(list[i]);
      }
    } else {
      validateOffset(totalLength, "length");
    }
    const out = allocUnsafe(totalLength);
    let pos = 0;
    for (let i = 0; i < list.length; i++) {
      const b = list[i];
      if (!isUint8Array(b)) throw invalidArgType("list[" + i + "]", "an instance of Buffer or Uint8Array", b);
      if (pos >= totalLength) break;
      const len = TypedArrayLength(b);
      const n = MathMin(len, totalLength - pos);
      TypedArraySet(out, n === len ? b : view(b, 0, n), pos);
      pos += n;
    }
    return out;
  }

  function compareBytes(a, aStart, aEnd, b, bStart, bEnd) {
    const n = MathMin(aEnd - aStart, bEnd - bStart);
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
    return compareBytes(buf1, 0, TypedArrayLength(buf1), buf2, 0, TypedArrayLength(buf2));
  }

  function isEncoding(enc) {
    return typeof enc === "string" && enc.length !== 0 && encodingOps(enc) !== undefined;
  }

  function copyBytesFrom(view_, offset, length) {
    if (!ArrayBufferIsView(view_) || HasInstance(DataViewCtor, view_)) throw invalidArgType("view", "an instance of TypedArray", view_);
    const size = view_.BYTES_PER_ELEMENT; // non-writable and non-configurable on each typed array prototype
    const count = TypedArrayLength(view_);
    let start = 0, end = count;
    if (offset !== undefined) {
      validateOffset(offset, "offset", 0);
      if (offset >= count) return new FastBuffer(0);
      start = offset;
    }
    if (length !== undefined) {
      validateOffset(length, "length", 0);
      end = MathMin(count, start + length);
    }
    if (end <= start) return new FastBuffer(0);
    const out = new FastBuffer((end - start) * size);
    TypedArraySet(out, new Uint8ArrayCtor(TypedArrayBuffer(view_), TypedArrayByteOffset(view_) + start * size, (end - start) * size));
    return out;
  }

  // Buffer.of(...items), its own as in Node: the generic %TypedArray%.of would construct through
  // the deprecated Buffer() and emit DEP0005.
  function of(...items) {
    const out = new FastBuffer(items.length);
    for (let k = 0; k < items.length; k++) out[k] = items[k];
    return out;
  }

  const statics = {
    __proto__: null,
    from, of, alloc, allocUnsafe, allocUnsafeSlow: allocUnsafe, byteLength, concat, compare, isEncoding, copyBytesFrom,
    isBuffer: (b) => isBuffer(b),
  };
  const staticKeys = ObjectKeys(statics);
  for (let i = 0; i < staticKeys.length; i++)
    ObjectDefineProperty(Buffer, staticKeys[i], { __proto__: null, value: statics[staticKeys[i]], writable: true, configurable: true });
  defineValue(Buffer, "poolSize", 8192);
  // As Node: the species of Buffer is the internal constructor, so map, filter and the other
  // methods that make a typed array of the receiver's kind never call the deprecated Buffer().
  ObjectDefineProperty(Buffer, S1[33].species, { __proto__: null, get: function () { return FastBuffer; }, enumerable: false, configurable: true });

  /* ---- prototype: conversion ---- */

  function adjustOffset(offset, length) {
    offset = MathTrunc(offset);
    if (offset === 0 || NumberIsNaN(offset)) return 0;
    if (offset < 0) {
      offset += length;
      return offset > 0 ? offset : 0;
    }
    return offset < length ? offset : length;
  }

  function subarrayOf(buf, start, end) {
    const len = TypedArrayLength(buf);
    start = adjustOffset(start, len);
    end = end !== undefined ? adjustOffset(end, len) : len;
    return new FastBuffer(TypedArrayBuffer(buf), TypedArrayByteOffset(buf) + start, end > start ? end - start : 0);
  }

  function toStringMethod(encoding, start, end) {
    try {
      return toStringOf(this, arguments.length, encoding, start, end);
    } catch (e) {
      // the engine's own string limit, reported as Node reports it
      if (HasInstance(RangeErrorCtor, e) && !ObjectHasOwn(e, "code") && TypedArrayLength(this) > kStringMaxLength / 4) {
        throw codedError(ErrorCtor, "ERR_STRING_TOO_LONG",
          "Cannot create a string longer than 0x" + NumberToString(kStringMaxLength, 16) + " characters");
      }
      throw e;
    }
  }

  // only digits: an index key, which inspect leaves out
  function isIndexKey(k) {
    if (typeof k !== "string" || k.length === 0) return false;
    for (let i = 0; i < k.length; i++) {
      const c = StringCharCodeAt(k, i);
      if (c < 48 || c > 57) return false;
    }
    return true;
  }

  const methods = {
    __proto__: null,
    toString: toStringMethod,

    toJSON() {
      const n = TypedArrayLength(this);
      const data = list(); // filled without a prototype (no setter on Array.prototype runs), then made an Array
      for (let i = 0; i < n; i++) data[i] = this[i];
      return { type: "Buffer", data: ObjectSetPrototypeOf(data, ArrayPrototype) };
    },

    equals(other) {
      requireBytes(other, "otherBuffer");
      if (this === other) return true;
      const n = TypedArrayLength(this);
      if (n !== TypedArrayLength(other)) return false;
      return compareBytes(this, 0, n, other, 0, n) === 0;
    },

    compare(target, targetStart, targetEnd, sourceStart, sourceEnd) {
      requireBytes(target, "target");
      const targetLength = TypedArrayLength(target), length = TypedArrayLength(this);
      if (targetStart === undefined) targetStart = 0;
      else validateOffset(targetStart, "targetStart");
      if (targetEnd === undefined) targetEnd = targetLength;
      else validateOffset(targetEnd, "targetEnd", 0, targetLength);
      if (sourceStart === undefined) sourceStart = 0;
      else validateOffset(sourceStart, "sourceStart");
      if (sourceEnd === undefined) sourceEnd = length;
      else validateOffset(sourceEnd, "sourceEnd", 0, length);
      if (sourceStart >= sourceEnd) return targetStart >= targetEnd ? 0 : -1;
      if (targetStart >= targetEnd) return 1;
      return compareBytes(this, sourceStart, sourceEnd, target, targetStart, targetEnd);
    },

    subarray(start, end) {
      return subarrayOf(this, start, end);
    },

    slice(start, end) {
      return subarrayOf(this, start, end);
    },

    write(string, offset, length, encoding) {
      if (typeof string !== "string") throw codedError(TypeErrorCtor, "ERR_INVALID_ARG_TYPE", "argument must be a string");
      const size = TypedArrayLength(this);
      if (offset === undefined) return ENCODINGS.utf8.write(this, string, 0, size);
      if (length === undefined && typeof offset === "string") {
        encoding = offset;
        length = size;
        offset = 0;
      } else {
        validateOffset(offset, "offset", 0, size);
        const remaining = size - offset;
        if (length === undefined) length = remaining;
        else if (typeof length === "string") { encoding = length; length = remaining; }
        else {
          validateOffset(length, "length", 0, size);
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
      const length = TypedArrayLength(this), targetLength = TypedArrayLength(target);
      const toInteger = (n, dflt) => {
        n = +n;
        if (!NumberIsNaN(n) && n >= -9007199254740991 && n <= 9007199254740991) return n % 1 === 0 ? n : MathFloor(n);
        return dflt;
      };
      if (targetStart === undefined) targetStart = 0;
      else {
        targetStart = NumberIsInteger(targetStart) ? targetStart : toInteger(targetStart, 0);
        if (targetStart < 0) throw outOfRange("targetStart", ">= 0", targetStart);
      }
      if (sourceStart === undefined) sourceStart = 0;
      else {
        sourceStart = NumberIsInteger(sourceStart) ? sourceStart : toInteger(sourceStart, 0);
        if (sourceStart < 0 || sourceStart > length) throw outOfRange("sourceStart", ">= 0 && <= " + length, sourceStart);
      }
      if (sourceEnd === undefined) sourceEnd = length;
      else {
        sourceEnd = NumberIsInteger(sourceEnd) ? sourceEnd : toInteger(sourceEnd, 0);
        if (sourceEnd < 0) throw outOfRange("sourceEnd", ">= 0", sourceEnd);
      }
      if (targetStart >= targetLength || sourceStart >= sourceEnd) return 0;
      if (sourceEnd - sourceStart > targetLength - targetStart) sourceEnd = sourceStart + targetLength - targetStart;
      let nb = sourceEnd - sourceStart;
      if (nb > length - sourceStart) nb = length - sourceStart;
      TypedArraySet(target, view(this, sourceStart, sourceStart + nb), targetStart);
      return nb;
    },

    // plain functions, as Node's (`new buf.indexOf(…)` reaches the receiver check, not "not a constructor")
    indexOf: function indexOf(value, byteOffset, encoding) { return searchBuffer(this, value, byteOffset, encoding, true); },
    lastIndexOf: function lastIndexOf(value, byteOffset, encoding) { return searchBuffer(this, value, byteOffset, encoding, false); },
    includes: function includes(value, byteOffset, encoding) { return searchBuffer(this, value, byteOffset, encoding, true) !== -1; },

    swap16() { return swap(this, 2); },
    swap32() { return swap(this, 4); },
    swap64() { return swap(this, 8); },

    toLocaleString: toStringMethod, // the same function, as in Node

    [inspectCustom](depth, options) {
      const length = TypedArrayLength(this);
      let str = hexBytes(this, INSPECT_MAX_BYTES);
      const remaining = length - INSPECT_MAX_BYTES;
      if (remaining > 0) str += " ... " + remaining + " more byte" + (remaining > 1 ? "s" : "");
      if (options && typeof options.stylize === "function") {
        const keys = ObjectKeys(this);
        let util = null;
        for (let i = 0; i < keys.length; i++) {
          const k = keys[i];
          if (isIndexKey(k)) continue;
          if (util === null) util = require("util");
          str += (str ? ", " : "") + k + ": " +
            util.inspect(this[k], { depth: options.depth === null ? null : (options.depth || 2) - 1 });
        }
      }
      return "<" + this.constructor.name + " " + str + ">";
    },
  };

  function swap(buf, size) {
    const length = TypedArrayLength(buf);
    if (length % size !== 0)
      throw codedError(RangeErrorCtor, "ERR_INVALID_BUFFER_SIZE", "Buffer size must be a multiple of " + size * 8 + "-bits");
    for (let i = 0; i < length; i += size) {
      for (let a = i, b = i + size - 1; a < b; a++, b--) {
        const t = buf[a];
        buf[a] = buf[b];
        buf[b] = t;
      }
    }
    return buf;
  }

  // The bytes of a view other than a Uint8Array. A DataView's buffer and byteOffset are read
  // through its getters (DataView.prototype's are not captured).
  function viewBytes(v) {
    if (HasInstance(DataViewCtor, v)) return new Uint8ArrayCtor(v.buffer, v.byteOffset, DataViewByteLength(v));
    return new Uint8ArrayCtor(TypedArrayBuffer(v), TypedArrayByteOffset(v), TypedArrayByteLength(v));
  }

  function fillBuffer(buf, value, offset, end, encoding) {
    const length = TypedArrayLength(buf);
    // Node's fill defaults to and bounds by buf.length: a `length` data property the guest put on
    // the buffer counts (read as a descriptor, so no getter runs); beyond the bytes it is refused
    // (ERR_BUFFER_OUT_OF_BOUNDS below), never followed
    const own = P.ReflectGetOwnPropertyDescriptor(buf, "length");
    const claimed = own !== undefined && ObjectHasOwn(own, "value") && typeof own.value === "number" ? own.value : length;
    let bytes = null;
    if (typeof value === "string") {
      if (offset === undefined || typeof offset === "string") {
        encoding = offset;
        offset = 0;
        end = claimed;
      } else if (typeof end === "string") {
        encoding = end;
        end = claimed;
      }
      const enc = normalizeEncoding(encoding);
      if (enc === undefined) {
        if (typeof encoding !== "string") throw invalidArgType("encoding", "of type string", encoding);
        throw unknownEncoding(encoding);
      }
      if (value.length === 0) value = 0;
      else if (value.length === 1 && enc === "utf8" && StringCharCodeAt(value, 0) < 128) value = StringCharCodeAt(value, 0);
      else if (value.length === 1 && enc === "latin1") value = StringCharCodeAt(value, 0);
      else bytes = ENCODINGS[enc].encode(value);
    } else if (isUint8Array(value)) {
      bytes = value;
    } else if (ArrayBufferIsView(value)) {
      bytes = viewBytes(value);
    } else if (typeof value === "boolean") {
      value = NumberCtor(value);
    } else if (typeof value !== "number") {
      value = NumberCtor(value) >>> 0;
    }
    if (offset === undefined) {
      offset = 0;
      end = claimed;
    } else {
      validateOffset(offset, "offset");
      if (end === undefined) end = claimed;
      else validateOffset(end, "end", 0, claimed);
      if (offset >= end) return buf;
    }
    if (bytes === null) {
      if (offset > end || end > length) throw outOfBounds();
      TypedArrayFill(buf, value & 255, offset, end);
      return buf;
    }
    const n = TypedArrayLength(bytes);
    if (n === 0) throw invalidArgValue("value", value);
    if (end > length) throw outOfBounds();
    if (TypedArrayBuffer(bytes) === TypedArrayBuffer(buf)) bytes = copyOf(bytes);
    for (let at = offset; at < end; at += n) {
      const k = MathMin(n, end - at);
      TypedArraySet(buf, k === n ? bytes : view(bytes, 0, k), at);
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

  function findBytes(hay, hayLength, needle, n, start, forward, step) {
    const last = hayLength - n;
    if (forward) {
      for (let i = start; i <= last; i += step) {
        let j = 0;
        while (j < n && hay[i + j] === needle[j]) j++;
        if (j === n) return i;
      }
    } else {
      for (let i = MathMin(start, last); i >= 0; i--) {
        if (step === 2 && i % 2) continue;
        let j = 0;
        while (j < n && hay[i + j] === needle[j]) j++;
        if (j === n) return i;
      }
    }
    return -1;
  }

  function searchBuffer(buf, value, byteOffset, encoding, forward) {
    if (!ArrayBufferIsView(buf)) throw invalidArgType("buffer", "an instance of Buffer, TypedArray, or DataView", buf);
    if (typeof byteOffset === "string") {
      encoding = byteOffset;
      byteOffset = undefined;
    } else if (byteOffset > 0x7fffffff) byteOffset = 0x7fffffff;
    else if (byteOffset < -0x80000000) byteOffset = -0x80000000;
    byteOffset = +byteOffset;
    const len = TypedArrayLength(buf);
    if (NumberIsNaN(byteOffset)) byteOffset = forward ? 0 : len;
    byteOffset = MathTrunc(byteOffset);
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
    } else if (isUint8Array(value)) {
      needle = value;
    } else {
      throw invalidArgType("value", "one of type number or string or an instance of Buffer or Uint8Array", value);
    }
    const needleLength = TypedArrayLength(needle);
    const ucs2 = ops !== undefined && ops.name === "utf16le";
    const start = searchStart(len, byteOffset, needleLength, forward);
    if (needleLength === 0) return start;
    if (len === 0 || start <= -1) return -1;
    if ((forward && needleLength + start > len) || needleLength > len) return -1;
    if (ucs2) {
      if (len < 2 || needleLength < 2) return -1;
      return findBytes(buf, len, needle, needleLength, forward ? start + (start & 1) : start, forward, 2);
    }
    return findBytes(buf, len, needle, needleLength, start, forward, 1);
  }

  function toStringOf(buf, argc, encoding, start, end) {
    const len = TypedArrayLength(buf);
    if (argc === 0) return ENCODINGS.utf8.decode(buf, 0, len);
    if (start <= 0) start = 0;
    else if (start >= len) return "";
    else start = MathTrunc(start) || 0;
    if (end === undefined || end > len) end = len;
    else end = MathTrunc(end) || 0;
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
    const length = TypedArrayLength(buf);
    if (!(offset >= 0 && offset + size <= length && NumberIsInteger(offset))) boundsError(offset, length - size);
    return offset;
  }

  function boundsError(value, length, what) {
    if (MathFloor(value) !== value) {
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
    if (!(byteLength >= 1 && byteLength <= 6 && NumberIsInteger(byteLength))) boundsError(byteLength, 6, "byteLength");
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
    const length = TypedArrayLength(buf);
    if (!(offset >= 0 && offset + size <= length && NumberIsInteger(offset))) boundsError(offset, length - size);
    let v = NumberIsNaN(value) ? 0 : MathTrunc(value);
    if (v < 0) v += 2 ** (8 * size);
    for (let i = 0; i < size; i++) {
      const byte = v % 256;
      buf[offset + (little ? i : size - 1 - i)] = byte;
      v = (v - byte) / 256;
    }
    return offset + size;
  }

  // Floats and 64-bit integers go through typed-array views of one 8-byte scratch buffer (no
  // DataView method is called); bytes are copied in the platform's order, flipped when the
  // accessor's order differs.
  const scratch = new Uint8ArrayCtor(8);
  const scratchF32 = new Float32ArrayCtor(TypedArrayBuffer(scratch), 0, 1);
  const scratchF64 = new Float64ArrayCtor(TypedArrayBuffer(scratch), 0, 1);
  const scratchI64 = new BigInt64ArrayCtor(TypedArrayBuffer(scratch), 0, 1);
  const scratchU64 = new BigUint64ArrayCtor(TypedArrayBuffer(scratch), 0, 1);
  const platformLittle = (() => { new Uint16ArrayCtor(TypedArrayBuffer(scratch), 0, 1)[0] = 1; return scratch[0] === 1; })();

  function toScratch(buf, offset, size, little) {
    const flip = little !== platformLittle;
    for (let i = 0; i < size; i++) scratch[flip ? size - 1 - i : i] = buf[offset + i];
  }

  function fromScratch(buf, offset, size, little) {
    const flip = little !== platformLittle;
    for (let i = 0; i < size; i++) buf[offset + i] = scratch[flip ? size - 1 - i : i];
  }

  function readFloat(buf, offset, size, little) {
    offset = checkOffset(buf, offset, size);
    toScratch(buf, offset, size, little);
    return size === 4 ? scratchF32[0] : scratchF64[0];
  }

  function writeFloat(buf, value, offset, size, little) {
    value = +value;
    offset = checkOffset(buf, offset, size);
    if (size === 4) scratchF32[0] = value;
    else scratchF64[0] = value;
    fromScratch(buf, offset, size, little);
    return offset + size;
  }

  function readBig(buf, offset, little, signed) {
    offset = checkOffset(buf, offset, 8);
    toScratch(buf, offset, 8, little);
    return signed ? scratchI64[0] : scratchU64[0];
  }

  function writeBig(buf, value, offset, little, signed) {
    if (typeof value !== "bigint") throw new TypeErrorCtor("Cannot mix BigInt and other types, use explicit conversions");
    const min = signed ? -(2n ** 63n) : 0n;
    const max = signed ? 2n ** 63n - 1n : 2n ** 64n - 1n;
    if (value > max || value < min) throw outOfRange("value", intRangeText(min, max, 8, true), value);
    offset = checkOffset(buf, offset, 8);
    if (signed) scratchI64[0] = value;
    else scratchU64[0] = value;
    fromScratch(buf, offset, 8, little);
    return offset + 8;
  }

  // the accessors, made with index loops over literal lists (no array iterator)
  const SIZES = [1, 2, 4];
  const ENDS = [["LE", true], ["BE", false]], ONLY = [["", true]];
  for (let s = 0; s < SIZES.length; s++) {
    const size = SIZES[s], bits = StringCtor(size * 8);
    const ends = size === 1 ? ONLY : ENDS;
    for (let e = 0; e < ends.length; e++) {
      const suffix = ends[e][0], little = ends[e][1];
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
  for (let e = 0; e < ENDS.length; e++) {
    const suffix = ENDS[e][0], little = ENDS[e][1];
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
  // Node also spells the unsigned accessors with a lower-case "int" (readUint8, writeBigUint64LE…).
  const methodKeys = ObjectKeys(methods);
  for (let i = 0; i < methodKeys.length; i++) {
    const k = methodKeys[i], at = StringIndexOf(k, "UInt");
    if (at < 0) continue;
    const head = StringSlice(k, 0, at);
    if (head === "read" || head === "write" || head === "readBig" || head === "writeBig")
      methods[head + "Uint" + StringSlice(k, at + 4)] = methods[k];
  }

  const ownKeys = ReflectOwnKeys(methods);
  for (let i = 0; i < ownKeys.length; i++) {
    ObjectDefineProperty(proto, ownKeys[i], { __proto__: null, value: methods[ownKeys[i]], writable: true, configurable: true, enumerable: false });
  }
  // Legacy members Node still has: inspect() is the custom inspector; parent and offset are the
  // backing ArrayBuffer and the byte offset into it (enumerable getters, undefined off a Buffer).
  ObjectDefineProperty(proto, "inspect", { __proto__: null, value: methods[inspectCustom], writable: true, configurable: true, enumerable: false });
  ObjectDefineProperty(proto, "parent", {
    __proto__: null, get() { return isBuffer(this) ? TypedArrayBuffer(this) : undefined; }, enumerable: true, configurable: false,
  });
  ObjectDefineProperty(proto, "offset", {
    __proto__: null, get() { return isBuffer(this) ? TypedArrayByteOffset(this) : undefined; }, enumerable: true, configurable: false,
  });
  const SLICE_NAMES = ["utf8", "latin1", "ascii", "hex", "base64", "base64url", "ucs2", "utf16le"];
  for (let i = 0; i < SLICE_NAMES.length; i++) {
    const enc = SLICE_NAMES[i];
    const ops = ENCODINGS[ENCODING_NAMES[enc]];
    ObjectDefineProperty(proto, enc + "Slice", {
      __proto__: null,
      value: function (start, end) { return ops.decode(this, start === undefined ? 0 : start, end === undefined ? TypedArrayLength(this) : end); },
      writable: true, configurable: true,
    });
    ObjectDefineProperty(proto, enc + "Write", {
      __proto__: null,
      value: function (str, offset, length) {
        offset = offset === undefined ? 0 : offset;
        return ops.write(this, StringCtor(str), offset, length === undefined ? TypedArrayLength(this) - offset : length);
      },
      writable: true, configurable: true,
    });
  }

  /* ---- module functions ---- */

  // A Uint8Array over the bytes of an ArrayBuffer or any view (internal/text's bytesOf, on captures).
  function bytesArg(input, what) {
    if (isUint8Array(input)) return input;
    if (isAnyArrayBuffer(input)) return new Uint8ArrayCtor(input);
    if (ArrayBufferIsView(input)) return viewBytes(input);
    throw invalidArgType(what, "an instance of ArrayBuffer, Buffer, or TypedArray", input);
  }

  function isUtf8(input) {
    const b = bytesArg(input, "input");
    try {
      utf8DecodeRange(b, 0, TypedArrayLength(b), true, false);
      return true;
    } catch (_) {
      return false;
    }
  }

  function isAscii(input) {
    const b = bytesArg(input, "input");
    const n = TypedArrayLength(b);
    for (let i = 0; i < n; i++) if (b[i] > 0x7f) return false;
    return true;
  }

  // each code unit above U+00FF as "?" (what a latin1 or ascii target cannot hold)
  function narrow(str) {
    let out = "", from = 0;
    for (let i = 0; i < str.length; i++) {
      if (StringCharCodeAt(str, i) <= 0xff) continue;
      out += StringSlice(str, from, i) + "?";
      from = i + 1;
    }
    return from === 0 ? str : out + StringSlice(str, from);
  }

  function transcode(source, fromEnc, toEnc) {
    requireBytes(source, "source");
    const from_ = encodingOps(fromEnc), to = encodingOps(toEnc);
    const supported = (o) => o && (o.name === "utf8" || o.name === "utf16le" || o.name === "latin1" || o.name === "ascii");
    if (!supported(from_) || !supported(to)) {
      const err = new ErrorCtor("Unable to transcode Buffer [U_ILLEGAL_ARGUMENT_ERROR]");
      defineValue(err, "code", "U_ILLEGAL_ARGUMENT_ERROR");
      throw err;
    }
    let str = from_.decode(source, 0, TypedArrayLength(source));
    if (to.name === "latin1" || to.name === "ascii") str = narrow(str);
    return wrap(to.encode(str));
  }

  function SlowBuffer(size) {
    return allocUnsafe(size);
  }

  /* ---- Blob / File: internal/blob (shared with fetch and FormData) ---- */

  const { Blob, File } = require("internal/blob");

  return ObjectFreeze({
    Buffer, SlowBuffer, transcode, isUtf8, isAscii, kMaxLength, kStringMaxLength,
    btoa: text.btoa, atob: text.atob,
    constants: ObjectFreeze({ MAX_LENGTH: kMaxLength, MAX_STRING_LENGTH: kStringMaxLength }),
    get INSPECT_MAX_BYTES() { return INSPECT_MAX_BYTES; },
    set INSPECT_MAX_BYTES(value) {
      validateNumber(value, "INSPECT_MAX_BYTES", 0);
      INSPECT_MAX_BYTES = value;
    },
    Blob, File,
  });
})
