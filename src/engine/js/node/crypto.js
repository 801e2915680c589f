/* node/crypto.js — node:crypto, and the `crypto` global (its webcrypto).
 *
 * Computed (deterministic, performed again on replay): createHash / createHmac / hash and
 * webcrypto.subtle.digest — the bytes are accumulated here and hashed in one host call
 * (`crypto_digest`, OpenSSL's libcrypto in the host) when the digest is taken; md5, sha1, sha256,
 * sha384 and sha512 only, data capped at 32 MiB.
 * Captured (recorded in the call log, answered from it on replay): randomBytes, randomFill(Sync),
 * randomInt, randomUUID, getRandomValues — every random byte comes from the host op
 * `random_bytes` (getrandom(2)), at most 65536 bytes per call; larger requests are split into
 * several calls, and one request is capped at 1 MiB so the call log stays small.
 * Unavailable (throw ERR_CHIDORI_UNAVAILABLE): ciphers, signatures, key generation and KDFs, key
 * objects, certificates, Diffie-Hellman; webcrypto.subtle methods other than digest reject.
 * Hash/Hmac objects are not streams (no write/end/pipe).
 * Trusts nothing: every argument is guest data; errors mirror Node's names and codes.
 */
(function (require, natives, name) {
  "use strict";
  const ALGORITHMS = ["md5", "sha1", "sha256", "sha384", "sha512"];
  const ALIASES = { "sha-1": "sha1", "sha-256": "sha256", "sha-384": "sha384", "sha-512": "sha512",
    "sha2-256": "sha256", "sha2-384": "sha384", "sha2-512": "sha512", "rsa-md5": "md5", "rsa-sha1": "sha1",
    "rsa-sha256": "sha256", "rsa-sha384": "sha384", "rsa-sha512": "sha512", "ssl3-md5": "md5", "ssl3-sha1": "sha1" };
  // Names Node knows that chidori does not compute: a clearer error than "not supported".
  const KNOWN_ELSEWHERE = /^(sha224|sha512-224|sha512-256|sha3-|shake|blake2|md4|md5-sha1|ripemd|rmd160|sm3|whirlpool)/;
  const DIGEST_DATA_MAX = 32 << 20;
  const RANDOM_CALL_MAX = 65536;
  const RANDOM_REQUEST_MAX = 1 << 20;

  function nodeError(Ctor, code, message) {
    const err = new Ctor(message);
    if (code !== undefined) err.code = code;
    return err;
  }
  const describe = (v) => (v === null ? "null" : typeof v === "object" || typeof v === "function"
    ? "an instance of " + ((v.constructor && v.constructor.name) || "Object") : `type ${typeof v} (${String(v)})`);

  function unavailable(what) {
    return function () {
      throw nodeError(Error, "ERR_CHIDORI_UNAVAILABLE", `crypto.${what} is not available in chidori: ` +
        "only hashes, HMAC and captured randomness are (createHash, createHmac, randomBytes, randomUUID, getRandomValues)");
    };
  }

  /* ---- bytes: a private codec until node:buffer is available (then results become Buffers) ---- */

  let BufferCtor; // undefined: not looked up yet; null: node:buffer not available
  function output(u8) {
    if (BufferCtor === undefined) {
      try {
        BufferCtor = require("buffer").Buffer || null;
      } catch (e) {
        BufferCtor = null;
      }
    }
    return BufferCtor ? BufferCtor.from(u8.buffer, u8.byteOffset, u8.byteLength) : u8;
  }

  const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const B64_VALUE = new Int16Array(128).fill(-1);
  for (let i = 0; i < 64; i++) B64_VALUE[B64.charCodeAt(i)] = i;
  B64_VALUE[0x2d] = 62; // base64url
  B64_VALUE[0x5f] = 63;

  const B64_CODES = new Uint8Array(64);
  for (let i = 0; i < 64; i++) B64_CODES[i] = B64.charCodeAt(i);

  // Encodes into a byte array of ASCII codes, turned into a string 32 KiB at a time.
  function toBase64(u8, url) {
    const n = u8.length;
    const codes = new Uint8Array(Math.ceil(n / 3) * 4);
    let i = 0, o = 0;
    for (; i + 3 <= n; i += 3) {
      const v = (u8[i] << 16) | (u8[i + 1] << 8) | u8[i + 2];
      codes[o++] = B64_CODES[v >> 18];
      codes[o++] = B64_CODES[(v >> 12) & 63];
      codes[o++] = B64_CODES[(v >> 6) & 63];
      codes[o++] = B64_CODES[v & 63];
    }
    if (n - i === 1) {
      const v = u8[i] << 16;
      codes[o++] = B64_CODES[v >> 18];
      codes[o++] = B64_CODES[(v >> 12) & 63];
      codes[o++] = 0x3d;
      codes[o++] = 0x3d;
    } else if (n - i === 2) {
      const v = (u8[i] << 16) | (u8[i + 1] << 8);
      codes[o++] = B64_CODES[v >> 18];
      codes[o++] = B64_CODES[(v >> 12) & 63];
      codes[o++] = B64_CODES[(v >> 6) & 63];
      codes[o++] = 0x3d;
    }
    const parts = [];
    for (let p = 0; p < codes.length; p += 32768) parts.push(String.fromCharCode.apply(null, codes.subarray(p, p + 32768)));
    let s = parts.join("");
    if (url) s = s.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    return s;
  }

  // Lenient like Node's Buffer.from(s, "base64"): skips characters outside the alphabet, stops at "=".
  function fromBase64(s) {
    const out = new Uint8Array(Math.floor((s.length * 3) / 4) + 3);
    let acc = 0, bits = 0, o = 0;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c === 0x3d) break;
      const v = c < 128 ? B64_VALUE[c] : -1;
      if (v < 0) continue;
      acc = (acc << 6) | v;
      bits += 6;
      if (bits >= 8) {
        bits -= 8;
        out[o++] = (acc >> bits) & 0xff;
      }
    }
    return out.subarray(0, o);
  }

  function utf8Encode(s) {
    const out = new Uint8Array(s.length * 3);
    let o = 0;
    for (let i = 0; i < s.length; i++) {
      let c = s.charCodeAt(i);
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
        const d = s.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) {
          c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
          i++;
        }
      }
      if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd; // a lone surrogate
      if (c < 0x80) out[o++] = c;
      else if (c < 0x800) { out[o++] = 0xc0 | (c >> 6); out[o++] = 0x80 | (c & 63); }
      else if (c < 0x10000) { out[o++] = 0xe0 | (c >> 12); out[o++] = 0x80 | ((c >> 6) & 63); out[o++] = 0x80 | (c & 63); }
      else {
        out[o++] = 0xf0 | (c >> 18); out[o++] = 0x80 | ((c >> 12) & 63);
        out[o++] = 0x80 | ((c >> 6) & 63); out[o++] = 0x80 | (c & 63);
      }
    }
    return out.subarray(0, o);
  }

  function utf8Decode(u8) {
    let out = "";
    for (let i = 0; i < u8.length;) {
      const b = u8[i];
      let need = 0, cp = 0, lo = 0x80, hi = 0xbf;
      if (b < 0x80) { out += String.fromCharCode(b); i++; continue; }
      if (b >= 0xc2 && b <= 0xdf) { need = 1; cp = b & 0x1f; }
      else if (b >= 0xe0 && b <= 0xef) { need = 2; cp = b & 0xf; if (b === 0xe0) lo = 0xa0; if (b === 0xed) hi = 0x9f; }
      else if (b >= 0xf0 && b <= 0xf4) { need = 3; cp = b & 7; if (b === 0xf0) lo = 0x90; if (b === 0xf4) hi = 0x8f; }
      else { out += "\ufffd"; i++; continue; }
      let j = i + 1, ok = true;
      for (let k = 0; k < need; k++, j++) {
        const t = j < u8.length ? u8[j] : -1;
        if (t < lo || t > hi) { ok = false; break; }
        lo = 0x80; hi = 0xbf;
        cp = (cp << 6) | (t & 63);
      }
      out += ok ? String.fromCodePoint(cp) : "\ufffd";
      i = j;
    }
    return out;
  }

  const HEX = "0123456789abcdef";
  function toHex(u8) {
    let s = "";
    for (let i = 0; i < u8.length; i++) s += HEX[u8[i] >> 4] + HEX[u8[i] & 15];
    return s;
  }

  function fromHex(s) {
    const n = s.length >> 1;
    const out = new Uint8Array(n);
    let o = 0;
    for (; o < n; o++) { // like Node: stops at the first pair that is not hex
      const v = parseInt(s.substr(o * 2, 2), 16);
      if (!/^[0-9a-fA-F]{2}$/.test(s.substr(o * 2, 2))) break;
      out[o] = v;
    }
    return out.subarray(0, o);
  }

  function normalizeEncoding(enc) {
    if (enc === undefined || enc === null) return undefined;
    const e = String(enc).toLowerCase();
    switch (e) {
      case "utf8": case "utf-8": return "utf8";
      case "hex": case "base64": case "base64url": case "latin1": case "ascii": return e;
      case "binary": return "latin1";
      case "ucs2": case "ucs-2": case "utf16le": case "utf-16le": return "utf16le";
      case "buffer": return "buffer";
      default:
        throw nodeError(TypeError, "ERR_UNKNOWN_ENCODING", `Unknown encoding: ${enc}`);
    }
  }

  function stringToBytes(s, enc) {
    switch (normalizeEncoding(enc) || "utf8") {
      case "utf8": case "buffer": return utf8Encode(s);
      case "hex": return fromHex(s);
      case "base64": case "base64url": return fromBase64(s);
      case "latin1": case "ascii": {
        const out = new Uint8Array(s.length);
        for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i) & 0xff;
        return out;
      }
      case "utf16le": {
        const out = new Uint8Array(s.length * 2);
        for (let i = 0; i < s.length; i++) { const c = s.charCodeAt(i); out[2 * i] = c & 0xff; out[2 * i + 1] = c >> 8; }
        return out;
      }
    }
  }

  function bytesToString(u8, enc) {
    switch (enc) {
      case "hex": return toHex(u8);
      case "base64": return toBase64(u8, false);
      case "base64url": return toBase64(u8, true);
      case "utf8": return utf8Decode(u8);
      case "latin1": {
        let s = "";
        for (let i = 0; i < u8.length; i++) s += String.fromCharCode(u8[i]);
        return s;
      }
      case "ascii": {
        let s = "";
        for (let i = 0; i < u8.length; i++) s += String.fromCharCode(u8[i] & 0x7f);
        return s;
      }
      case "utf16le": {
        let s = "";
        for (let i = 0; i + 1 < u8.length; i += 2) s += String.fromCharCode(u8[i] | (u8[i + 1] << 8));
        return s;
      }
    }
  }

  // ArrayBuffer / TypedArray / DataView → a Uint8Array view of its bytes (no copy), else null.
  function viewOf(v) {
    if (ArrayBuffer.isView(v)) return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
    if (v instanceof ArrayBuffer || (typeof SharedArrayBuffer !== "undefined" && v instanceof SharedArrayBuffer)) {
      return new Uint8Array(v);
    }
    return null;
  }

  function concat(chunks, total) {
    const out = new Uint8Array(total);
    let o = 0;
    for (const c of chunks) { out.set(c, o); o += c.length; }
    return out;
  }

  /* ---- hashes and HMAC ---- */

  function resolveAlgorithm(algorithm, argName) {
    if (typeof algorithm !== "string") {
      throw nodeError(TypeError, "ERR_INVALID_ARG_TYPE",
        `The "${argName}" argument must be of type string. Received ${describe(algorithm)}`);
    }
    const lower = algorithm.toLowerCase();
    const alg = ALIASES[lower] || lower;
    if (ALGORITHMS.includes(alg)) return alg;
    if (KNOWN_ELSEWHERE.test(alg)) {
      throw nodeError(Error, "ERR_CHIDORI_UNAVAILABLE",
        `digest algorithm "${algorithm}" is not available in chidori (use one of ${ALGORITHMS.join(", ")})`);
    }
    throw nodeError(Error, "ERR_OSSL_EVP_UNSUPPORTED", "Digest method not supported");
  }

  function dataBytes(data, encoding, argName) {
    if (typeof data === "string") return stringToBytes(data, encoding);
    const v = ArrayBuffer.isView(data) ? viewOf(data) : null;
    if (v) return v;
    throw nodeError(TypeError, "ERR_INVALID_ARG_TYPE", `The "${argName}" argument must be of type string or an ` +
      `instance of Buffer, TypedArray, or DataView. Received ${describe(data)}`);
  }

  function tooLarge() {
    return nodeError(RangeError, "ERR_CHIDORI_LIMIT", `crypto: more than ${DIGEST_DATA_MAX >> 20} MiB to hash in one digest`);
  }

  // One host call: digest (or HMAC with key) of bytes → Uint8Array.
  function hostDigest(alg, bytes, key) {
    if (bytes.length > DIGEST_DATA_MAX) throw tooLarge();
    const args = { algorithm: alg, data: toBase64(bytes, false) };
    if (key) args.key = toBase64(key, false);
    return fromBase64(natives.callSync("crypto_digest", args).digest);
  }

  function finish(bytes, encoding) {
    const enc = normalizeEncoding(encoding);
    return enc === undefined || enc === "buffer" ? output(bytes) : bytesToString(bytes, enc);
  }

  class Hash {
    #alg; #key; #chunks = []; #size = 0; #done = false;

    constructor(algorithm, options, key) {
      this.#alg = resolveAlgorithm(algorithm, "algorithm");
      this.#key = key || null;
    }

    #copyFrom(other) {
      this.#chunks = other.#chunks.slice();
      this.#size = other.#size;
    }

    update(data, inputEncoding = undefined) {
      if (this.#done) throw nodeError(Error, "ERR_CRYPTO_HASH_FINALIZED", "Digest already called");
      const bytes = dataBytes(data, inputEncoding, "data");
      if (this.#size + bytes.length > DIGEST_DATA_MAX) throw tooLarge();
      this.#chunks.push(bytes.slice()); // a copy: the caller may reuse its buffer
      this.#size += bytes.length;
      return this;
    }

    digest(outputEncoding = undefined) {
      if (this.#done) {
        if (this.#key) return finish(new Uint8Array(0), outputEncoding); // Node: an empty HMAC digest
        throw nodeError(Error, "ERR_CRYPTO_HASH_FINALIZED", "Digest already called");
      }
      this.#done = true;
      const bytes = concat(this.#chunks, this.#size);
      this.#chunks = [];
      return finish(hostDigest(this.#alg, bytes, this.#key), outputEncoding);
    }

    copy(options = undefined) {
      if (this.#done) throw nodeError(Error, "ERR_CRYPTO_HASH_FINALIZED", "Digest already called");
      if (this.#key) throw unavailable("Hmac.copy")();
      const h = new Hash(this.#alg);
      h.#copyFrom(this);
      return h;
    }
  }

  class Hmac extends Hash {
    constructor(algorithm, key, options) {
      let k;
      if (typeof key === "string") k = utf8Encode(key);
      else k = viewOf(key);
      if (!k) {
        throw nodeError(TypeError, "ERR_INVALID_ARG_TYPE", 'The "key" argument must be of type string or an instance ' +
          `of ArrayBuffer, Buffer, TypedArray, DataView, KeyObject, or CryptoKey. Received ${describe(key)}`);
      }
      if (k.length > (1 << 20)) throw nodeError(RangeError, "ERR_CHIDORI_LIMIT", "crypto: an HMAC key is limited to 1 MiB");
      super(algorithm, options, k.slice());
    }
  }

  const createHash = (algorithm, options) => new Hash(algorithm, options);
  const createHmac = (algorithm, key, options) => new Hmac(algorithm, key, options);

  function hash(algorithm, data, outputEncoding = "hex") {
    const alg = resolveAlgorithm(algorithm, "algorithm");
    if (typeof data !== "string" && !ArrayBuffer.isView(data)) {
      throw nodeError(TypeError, "ERR_INVALID_ARG_TYPE", `The "data" argument must be of type string or an instance ` +
        `of Buffer, TypedArray, or DataView. Received ${describe(data)}`);
    }
    return finish(hostDigest(alg, dataBytes(data, "utf8", "data"), null), outputEncoding);
  }

  const getHashes = () => ALGORITHMS.slice();

  /* ---- captured randomness ---- */

  // n fresh bytes from the host, in calls of at most 65536 bytes each (each one recorded).
  function hostRandom(n) {
    const out = new Uint8Array(n);
    for (let o = 0; o < n; o += RANDOM_CALL_MAX) {
      const size = Math.min(RANDOM_CALL_MAX, n - o);
      const bytes = fromBase64(natives.callSync("random_bytes", { size }).bytes);
      if (bytes.length !== size) throw new Error("crypto: the host returned the wrong number of random bytes");
      out.set(bytes, o);
    }
    return out;
  }

  function checkSize(size, argName) {
    if (typeof size !== "number") {
      throw nodeError(TypeError, "ERR_INVALID_ARG_TYPE", `The "${argName}" argument must be of type number. Received ${describe(size)}`);
    }
    if (!(size >= 0 && size <= 2147483647) || !Number.isInteger(size)) {
      throw nodeError(RangeError, "ERR_OUT_OF_RANGE",
        `The value of "${argName}" is out of range. It must be >= 0 && <= 2147483647. Received ${size}`);
    }
    if (size > RANDOM_REQUEST_MAX) {
      throw nodeError(RangeError, "ERR_CHIDORI_LIMIT",
        `crypto: at most ${RANDOM_REQUEST_MAX} random bytes per request in chidori (every byte is recorded); received ${size}`);
    }
  }

  function checkCallback(cb) {
    if (typeof cb !== "function") {
      throw nodeError(TypeError, "ERR_INVALID_ARG_TYPE", `The "callback" argument must be of type function. Received ${describe(cb)}`);
    }
  }

  // Node runs these callbacks on a later turn of the event loop.
  const later = (fn, ...args) => natives.addTimer(fn, 0, args, false);

  function randomBytes(size, callback = undefined) {
    checkSize(size, "size");
    if (callback !== undefined) checkCallback(callback);
    const bytes = output(hostRandom(size));
    if (callback === undefined) return bytes;
    later(callback, null, bytes);
  }

  function fillTarget(buf) {
    const v = viewOf(buf);
    if (!v) {
      throw nodeError(TypeError, "ERR_INVALID_ARG_TYPE", 'The "buf" argument must be an instance of ArrayBuffer or ' +
        `ArrayBufferView. Received ${describe(buf)}`);
    }
    return v;
  }

  function fillRange(view, buf, offset, size) {
    const elem = ArrayBuffer.isView(buf) && buf.BYTES_PER_ELEMENT ? buf.BYTES_PER_ELEMENT : 1;
    const total = view.length;
    const off = offset === undefined ? 0 : offset * elem;
    if (typeof offset !== "undefined" && (typeof offset !== "number" || !Number.isInteger(offset) || off < 0 || off > total)) {
      throw nodeError(RangeError, "ERR_OUT_OF_RANGE", `The value of "offset" is out of range. It must be >= 0 && <= ${total / elem}. Received ${offset}`);
    }
    const sz = size === undefined ? total - off : size * elem;
    if (typeof size !== "undefined" && (typeof size !== "number" || !Number.isInteger(size) || sz < 0 || off + sz > total)) {
      throw nodeError(RangeError, "ERR_OUT_OF_RANGE", `The value of "size + offset" is out of range. It must be <= ${total / elem}. Received ${size}`);
    }
    checkSize(sz, "size");
    return [off, sz];
  }

  function randomFillSync(buf, offset = undefined, size = undefined) {
    const view = fillTarget(buf);
    const [off, sz] = fillRange(view, buf, offset, size);
    view.set(hostRandom(sz), off);
    return buf;
  }

  function randomFill(buf, offset, size, callback) {
    if (typeof offset === "function") { callback = offset; offset = undefined; size = undefined; }
    else if (typeof size === "function") { callback = size; size = undefined; }
    checkCallback(callback);
    const view = fillTarget(buf);
    const [off, sz] = fillRange(view, buf, offset, size);
    view.set(hostRandom(sz), off);
    later(callback, null, buf);
  }

  // Uniform in [min, max), by rejection sampling over 48-bit draws (no modulo bias).
  const RAND_MAX = 0xffffffffffff;
  function randomInt(min, max, callback) {
    const minGiven = typeof max !== "undefined" && typeof max !== "function";
    if (!minGiven) { callback = max; max = min; min = 0; }
    if (callback !== undefined) checkCallback(callback);
    if (!Number.isSafeInteger(min)) {
      throw nodeError(TypeError, "ERR_INVALID_ARG_TYPE", `The "min" argument must be a safe integer. Received ${describe(min)}`);
    }
    if (!Number.isSafeInteger(max)) {
      throw nodeError(TypeError, "ERR_INVALID_ARG_TYPE", `The "max" argument must be a safe integer. Received ${describe(max)}`);
    }
    if (max <= min) {
      throw nodeError(RangeError, "ERR_OUT_OF_RANGE",
        `The value of "max" is out of range. It must be greater than the value of "min" (${min}). Received ${max}`);
    }
    const range = max - min;
    if (!(range <= RAND_MAX)) {
      throw nodeError(RangeError, "ERR_OUT_OF_RANGE",
        `The value of "max - min" is out of range. It must be <= ${RAND_MAX}. Received ${range}`);
    }
    const limit = RAND_MAX - (RAND_MAX % range);
    let n;
    for (;;) {
      const b = hostRandom(6);
      const x = ((b[0] * 256 + b[1]) * 256 + b[2]) * 16777216 + ((b[3] << 16) | (b[4] << 8) | b[5]);
      if (x < limit) { n = min + (x % range); break; }
    }
    if (callback === undefined) return n;
    later(callback, null, n);
  }

  function randomUUID(options = undefined) {
    if (options !== undefined && (options === null || typeof options !== "object")) {
      throw nodeError(TypeError, "ERR_INVALID_ARG_TYPE", `The "options" argument must be of type object. Received ${describe(options)}`);
    }
    const b = hostRandom(16);
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    const h = toHex(b);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }

  function domException(message, name, code) {
    if (typeof DOMException === "function") return new DOMException(message, name);
    const err = new Error(message);
    err.name = name;
    Object.defineProperty(err, "code", { value: code, enumerable: false, configurable: true, writable: true });
    return err;
  }

  const INTEGER_ARRAYS = ["Int8Array", "Uint8Array", "Uint8ClampedArray", "Int16Array", "Uint16Array", "Int32Array",
    "Uint32Array", "BigInt64Array", "BigUint64Array"];
  function isIntegerArray(v) {
    if (!ArrayBuffer.isView(v) || v instanceof DataView) return false;
    for (const n of INTEGER_ARRAYS) if (typeof globalThis[n] === "function" && v instanceof globalThis[n]) return true;
    return false;
  }

  function getRandomValues(array) {
    if (arguments.length < 1) {
      throw nodeError(TypeError, "ERR_MISSING_ARGS", 'The "typedArray" argument must be specified');
    }
    if (!isIntegerArray(array)) throw domException("The data argument must be an integer-type TypedArray", "TypeMismatchError", 17);
    if (array.byteLength > RANDOM_CALL_MAX) {
      throw domException("The requested length exceeds 65,536 bytes", "QuotaExceededError", 22);
    }
    new Uint8Array(array.buffer, array.byteOffset, array.byteLength).set(hostRandom(array.byteLength));
    return array;
  }

  /* ---- comparison ---- */

  function timingSafeEqual(buf1, buf2) {
    const a = viewOf(buf1), b = viewOf(buf2);
    if (!a) throw nodeError(TypeError, "ERR_INVALID_ARG_TYPE", 'The "buf1" argument must be an instance of ArrayBuffer, Buffer, TypedArray, or DataView.');
    if (!b) throw nodeError(TypeError, "ERR_INVALID_ARG_TYPE", 'The "buf2" argument must be an instance of ArrayBuffer, Buffer, TypedArray, or DataView.');
    if (a.length !== b.length) {
      throw nodeError(RangeError, "ERR_CRYPTO_TIMING_SAFE_EQUAL_LENGTH", "Input buffers must have the same byte length");
    }
    let diff = 0;
    for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i]; // every byte, no early exit
    return diff === 0;
  }

  /* ---- webcrypto ---- */

  const SUBTLE_DIGESTS = { "sha-1": "sha1", "sha-256": "sha256", "sha-384": "sha384", "sha-512": "sha512" };
  const subtleUnavailable = (method) => function () {
    return Promise.reject(nodeError(Error, "ERR_CHIDORI_UNAVAILABLE",
      `crypto.subtle.${method} is not available in chidori (only crypto.subtle.digest is)`));
  };
  const subtle = Object.freeze({
    digest(algorithm, data) {
      return new Promise((resolve) => {
        const algName = typeof algorithm === "string" ? algorithm : algorithm && algorithm.name;
        const alg = typeof algName === "string" ? SUBTLE_DIGESTS[algName.toLowerCase()] : undefined;
        if (!alg) throw domException("Unrecognized algorithm name", "NotSupportedError", 9);
        const v = viewOf(data);
        if (!v) throw nodeError(TypeError, "ERR_INVALID_ARG_TYPE", "The data argument must be a BufferSource");
        const d = hostDigest(alg, v, null);
        resolve(d.buffer.slice(d.byteOffset, d.byteOffset + d.byteLength));
      });
    },
    encrypt: subtleUnavailable("encrypt"), decrypt: subtleUnavailable("decrypt"),
    sign: subtleUnavailable("sign"), verify: subtleUnavailable("verify"),
    generateKey: subtleUnavailable("generateKey"), deriveKey: subtleUnavailable("deriveKey"),
    deriveBits: subtleUnavailable("deriveBits"), importKey: subtleUnavailable("importKey"),
    exportKey: subtleUnavailable("exportKey"), wrapKey: subtleUnavailable("wrapKey"),
    unwrapKey: subtleUnavailable("unwrapKey"),
  });

  const webcrypto = Object.freeze({
    getRandomValues,
    randomUUID: () => randomUUID(),
    subtle,
  });

  const exports = {
    createHash, createHmac, hash, getHashes, Hash, Hmac,
    randomBytes, pseudoRandomBytes: randomBytes, randomFillSync, randomFill, randomInt, randomUUID, getRandomValues,
    timingSafeEqual, webcrypto, subtle,
    getCiphers: () => [], getCurves: () => [],
    constants: Object.freeze({}),
  };
  for (const what of ["createCipheriv", "createDecipheriv", "createSign", "createVerify", "sign", "verify",
    "generateKeyPair", "generateKeyPairSync", "generateKey", "generateKeySync", "pbkdf2", "pbkdf2Sync", "scrypt",
    "scryptSync", "hkdf", "hkdfSync", "createECDH", "createDiffieHellman", "createDiffieHellmanGroup",
    "getDiffieHellman", "diffieHellman", "publicEncrypt", "publicDecrypt", "privateEncrypt", "privateDecrypt",
    "createPublicKey", "createPrivateKey", "createSecretKey", "KeyObject", "X509Certificate", "Certificate",
    "checkPrime", "checkPrimeSync", "generatePrime", "generatePrimeSync", "setEngine", "setFips", "getFips",
    "secureHeapUsed", "getCipherInfo"]) {
    exports[what] = unavailable(what);
  }
  return Object.freeze(exports);
})
