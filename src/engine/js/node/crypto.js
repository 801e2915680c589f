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
 * Hash/Hmac objects are not streams (no write/end/pipe). Bytes come back as Buffers.
 * Trusts nothing: every argument is guest data; errors mirror Node's names and codes.
 * Primordials (docs/primordials.md): what goes to the host (algorithm, data, key, sizes) is built on
 * builtins captured before guest code (natives.primordials); hex, base64 and UTF-8 are done here and
 * in internal/text, other encodings through node:buffer.
 */
(function (require, natives, name) {
  "use strict";
  const P = natives.primordials, u = P.uncurry;
  const { StringCtor, ObjectFreeze, ArrayBufferIsView, NumberIsInteger, TypeErrorCtor, ErrorCtor, PromiseCtor, PromiseOwn, PromiseReject, ObjectHasOwn, list, rec } = P;
  // globals and small forms in place of captures (docs/primordials.md: global bindings are not covered)
  const Uint8ArrayCtor = Uint8Array, MathMin = (a, b) => (a < b ? a : b), RangeErrorCtor = RangeError;
  const StringToLowerCase = u(P.StringPrototypeToLowerCase), StringSlice = u(P.StringPrototypeSlice);
  const RegExpExec = u(P.RegExpPrototypeExec), ArrayIndexOf = u(P.ArrayPrototypeIndexOf), ArraySlice = u(P.ArrayPrototypeSlice);
  const ArrayJoin = u(P.ArrayPrototypeJoin), TypedArraySlice = u(P.TypedArrayPrototypeSlice), TypedArraySet = u(P.TypedArrayPrototypeSet);
  const ArrayBufferSlice = (b, a, e) => new Uint8Array(new Uint8Array(b, a, e - a)).buffer; // a copy, no method read
  const NumberIsSafeInteger = (n) => NumberIsInteger(n) && n >= -9007199254740991 && n <= 9007199254740991;
  const ALGORITHMS = ["md5", "sha1", "sha256", "sha384", "sha512"];
  const ALIASES = {
    __proto__: null, "sha-1": "sha1", "sha-256": "sha256", "sha-384": "sha384", "sha-512": "sha512",
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

  /* ---- bytes: node:buffer for encodings, internal/text for the base64 of the host seam ---- */

  const text = require("internal/text");
  // node:buffer only for encodings other than UTF-8, hex and base64, loaded then
  let BufferCtor = null;
  const getBuffer = () => (BufferCtor === null ? (BufferCtor = require("buffer").Buffer) : BufferCtor);
  const output = (u8) => text.asBuffer(u8);
  const toBase64 = (u8) => text.bytesToBase64(u8, false);
  const fromBase64 = (s) => text.base64ToBytes(s);
  const HEX = "0123456789abcdef";
  function toHex(u8) {
    let s = "";
    for (let i = 0; i < u8.length; i++) s += HEX[u8[i] >> 4] + HEX[u8[i] & 15];
    return s;
  }

  // ArrayBuffer / TypedArray / DataView → a Uint8Array view of its bytes (no copy), else null.
  function viewOf(v) {
    if (ArrayBufferIsView(v)) return new Uint8ArrayCtor(v.buffer, v.byteOffset, v.byteLength);
    if (v instanceof ArrayBuffer || (typeof SharedArrayBuffer !== "undefined" && v instanceof SharedArrayBuffer)) {
      return new Uint8Array(v);
    }
    return null;
  }

  function concat(chunks, total) {
    const out = new Uint8ArrayCtor(total);
    let o = 0;
    for (let i = 0; i < chunks.length; i++) { TypedArraySet(out, chunks[i], o); o += chunks[i].length; }
    return out;
  }

  /* ---- hashes and HMAC ---- */

  function resolveAlgorithm(algorithm, argName) {
    if (typeof algorithm !== "string") {
      throw nodeError(TypeError, "ERR_INVALID_ARG_TYPE",
        `The "${argName}" argument must be of type string. Received ${describe(algorithm)}`);
    }
    const lower = StringToLowerCase(algorithm);
    const alg = ALIASES[lower] || lower;
    if (ArrayIndexOf(ALGORITHMS, alg) >= 0) return alg;
    if (RegExpExec(KNOWN_ELSEWHERE, alg) !== null) {
      throw nodeError(Error, "ERR_CHIDORI_UNAVAILABLE",
        `digest algorithm "${algorithm}" is not available in chidori (use one of ${ArrayJoin(ALGORITHMS, ", ")})`);
    }
    throw nodeError(Error, "ERR_OSSL_EVP_UNSUPPORTED", "Digest method not supported");
  }

  function dataBytes(data, encoding, argName) {
    if (typeof data === "string") {
      if (encoding === undefined || encoding === null || encoding === "buffer" || encoding === "utf8" || encoding === "utf-8")
        return text.utf8Encode(data);
      const b = getBuffer().from(data, encoding);
      return new Uint8ArrayCtor(b.buffer, b.byteOffset, b.byteLength);
    }
    const v = ArrayBufferIsView(data) ? viewOf(data) : null;
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
    const args = { __proto__: null, algorithm: alg, data: toBase64(bytes) };
    if (key) args.key = toBase64(key);
    return fromBase64(natives.callSync("crypto_digest", args).digest);
  }

  // Bytes as a Buffer, or as a string in Buffer's encoding (which throws ERR_UNKNOWN_ENCODING).
  function finish(bytes, encoding) {
    if (encoding === undefined || encoding === null || encoding === "buffer") return output(bytes);
    if (encoding === "hex") return toHex(bytes);
    if (encoding === "base64") return text.bytesToBase64(bytes, false);
    if (encoding === "base64url") return text.bytesToBase64(bytes, true);
    return output(bytes).toString(encoding);
  }

  class Hash {
    #alg; #key; #chunks = list(); #size = 0; #done = false;

    constructor(algorithm, options, key) {
      this.#alg = resolveAlgorithm(algorithm, "algorithm");
      this.#key = key || null;
    }

    #copyFrom(other) {
      const from = other.#chunks, to = list();
      for (let i = 0; i < from.length; i++) to[i] = from[i];
      this.#chunks = to;
      this.#size = other.#size;
    }

    update(data, inputEncoding = undefined) {
      if (this.#done) throw nodeError(Error, "ERR_CRYPTO_HASH_FINALIZED", "Digest already called");
      const bytes = dataBytes(data, inputEncoding, "data");
      if (this.#size + bytes.length > DIGEST_DATA_MAX) throw tooLarge();
      this.#chunks[this.#chunks.length] = TypedArraySlice(bytes); // a copy: the caller may reuse its buffer
      this.#size += bytes.length;
      return this;
    }

    digest(outputEncoding = undefined) {
      if (this.#done) {
        if (this.#key) return finish(new Uint8ArrayCtor(0), outputEncoding); // Node: an empty HMAC digest
        throw nodeError(Error, "ERR_CRYPTO_HASH_FINALIZED", "Digest already called");
      }
      this.#done = true;
      const bytes = concat(this.#chunks, this.#size);
      this.#chunks = list();
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
      if (typeof key === "string") k = text.utf8Encode(key);
      else k = viewOf(key);
      if (!k) {
        throw nodeError(TypeError, "ERR_INVALID_ARG_TYPE", 'The "key" argument must be of type string or an instance ' +
          `of ArrayBuffer, Buffer, TypedArray, DataView, KeyObject, or CryptoKey. Received ${describe(key)}`);
      }
      if (k.length > (1 << 20)) throw nodeError(RangeError, "ERR_CHIDORI_LIMIT", "crypto: an HMAC key is limited to 1 MiB");
      super(algorithm, options, TypedArraySlice(k));
    }
  }

  const createHash = (algorithm, options) => new Hash(algorithm, options);
  const createHmac = (algorithm, key, options) => new Hmac(algorithm, key, options);

  function hash(algorithm, data, outputEncoding = "hex") {
    const alg = resolveAlgorithm(algorithm, "algorithm");
    if (typeof data !== "string" && !ArrayBufferIsView(data)) {
      throw nodeError(TypeError, "ERR_INVALID_ARG_TYPE", `The "data" argument must be of type string or an instance ` +
        `of Buffer, TypedArray, or DataView. Received ${describe(data)}`);
    }
    return finish(hostDigest(alg, dataBytes(data, "utf8", "data"), null), outputEncoding);
  }

  const getHashes = () => ArraySlice(ALGORITHMS);

  /* ---- captured randomness ---- */

  // n fresh bytes from the host, in calls of at most 65536 bytes each (each one recorded).
  function hostRandom(n) {
    const out = new Uint8ArrayCtor(n);
    for (let o = 0; o < n; o += RANDOM_CALL_MAX) {
      const size = MathMin(RANDOM_CALL_MAX, n - o);
      const bytes = fromBase64(natives.callSync("random_bytes", { __proto__: null, size }).bytes);
      if (bytes.length !== size) throw new ErrorCtor("crypto: the host returned the wrong number of random bytes");
      TypedArraySet(out, bytes, o);
    }
    return out;
  }

  function checkSize(size, argName) {
    if (typeof size !== "number") {
      throw nodeError(TypeError, "ERR_INVALID_ARG_TYPE", `The "${argName}" argument must be of type number. Received ${describe(size)}`);
    }
    if (!(size >= 0 && size <= 2147483647) || !NumberIsInteger(size)) {
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
    const elem = ArrayBufferIsView(buf) && buf.BYTES_PER_ELEMENT ? buf.BYTES_PER_ELEMENT : 1;
    const total = view.length;
    const off = offset === undefined ? 0 : offset * elem;
    if (typeof offset !== "undefined" && (typeof offset !== "number" || !NumberIsInteger(offset) || off < 0 || off > total)) {
      throw nodeError(RangeError, "ERR_OUT_OF_RANGE", `The value of "offset" is out of range. It must be >= 0 && <= ${total / elem}. Received ${offset}`);
    }
    const sz = size === undefined ? total - off : size * elem;
    if (typeof size !== "undefined" && (typeof size !== "number" || !NumberIsInteger(size) || sz < 0 || off + sz > total)) {
      throw nodeError(RangeError, "ERR_OUT_OF_RANGE", `The value of "size + offset" is out of range. It must be <= ${total / elem}. Received ${size}`);
    }
    checkSize(sz, "size");
    return { __proto__: null, off, sz };
  }

  function randomFillSync(buf, offset = undefined, size = undefined) {
    const view = fillTarget(buf);
    const r = fillRange(view, buf, offset, size);
    TypedArraySet(view, hostRandom(r.sz), r.off);
    return buf;
  }

  function randomFill(buf, offset, size, callback) {
    if (typeof offset === "function") { callback = offset; offset = undefined; size = undefined; }
    else if (typeof size === "function") { callback = size; size = undefined; }
    checkCallback(callback);
    const view = fillTarget(buf);
    const r = fillRange(view, buf, offset, size);
    TypedArraySet(view, hostRandom(r.sz), r.off);
    later(callback, null, buf);
  }

  // Uniform in [min, max), by rejection sampling over 48-bit draws (no modulo bias).
  const RAND_MAX = 0xffffffffffff;
  function randomInt(min, max, callback) {
    const minGiven = typeof max !== "undefined" && typeof max !== "function";
    if (!minGiven) { callback = max; max = min; min = 0; }
    if (callback !== undefined) checkCallback(callback);
    if (!NumberIsSafeInteger(min)) {
      throw nodeError(TypeError, "ERR_INVALID_ARG_TYPE", `The "min" argument must be a safe integer. Received ${describe(min)}`);
    }
    if (!NumberIsSafeInteger(max)) {
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
    // no template literal: QuickJS builds one with String.prototype.concat
    return StringSlice(h, 0, 8) + "-" + StringSlice(h, 8, 12) + "-" + StringSlice(h, 12, 16) + "-" + StringSlice(h, 16, 20) + "-" + StringSlice(h, 20);
  }

  const domException = (message, name) => new text.DOMException(message, name);

  // the integer typed-array classes, taken when this module loads (never looked up on the global later)
  const INTEGER_ARRAYS = list();
  {
    const all = [Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array,
      typeof BigInt64Array === "function" ? BigInt64Array : null, typeof BigUint64Array === "function" ? BigUint64Array : null];
    for (let i = 0; i < all.length; i++) if (typeof all[i] === "function") INTEGER_ARRAYS[INTEGER_ARRAYS.length] = all[i];
  }
  function isIntegerArray(v) {
    if (!ArrayBufferIsView(v) || v instanceof DataView) return false;
    for (let i = 0; i < INTEGER_ARRAYS.length; i++) if (v instanceof INTEGER_ARRAYS[i]) return true;
    return false;
  }

  function getRandomValues(array) {
    if (arguments.length < 1) {
      throw nodeError(TypeError, "ERR_MISSING_ARGS", 'The "typedArray" argument must be specified');
    }
    if (!isIntegerArray(array)) throw domException("The data argument must be an integer-type TypedArray", "TypeMismatchError");
    if (array.byteLength > RANDOM_CALL_MAX) {
      throw domException("The requested length exceeds 65,536 bytes", "QuotaExceededError");
    }
    TypedArraySet(new Uint8ArrayCtor(array.buffer, array.byteOffset, array.byteLength), hostRandom(array.byteLength));
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

  const SUBTLE_DIGESTS = { __proto__: null, "sha-1": "sha1", "sha-256": "sha256", "sha-384": "sha384", "sha-512": "sha512" };
  const subtleUnavailable = (method) => function () {
    return PromiseReject(nodeError(Error, "ERR_CHIDORI_UNAVAILABLE",
      `crypto.subtle.${method} is not available in chidori (only crypto.subtle.digest is)`));
  };
  const subtle = ObjectFreeze({
    digest(algorithm, data) {
      return PromiseOwn(new PromiseCtor((resolve) => {
        const algName = typeof algorithm === "string" ? algorithm : algorithm && algorithm.name;
        const alg = typeof algName === "string" ? SUBTLE_DIGESTS[StringToLowerCase(algName)] : undefined;
        if (!alg) throw domException("Unrecognized algorithm name", "NotSupportedError");
        const v = viewOf(data);
        if (!v) throw nodeError(TypeError, "ERR_INVALID_ARG_TYPE", "The data argument must be a BufferSource");
        const d = hostDigest(alg, v, null);
        resolve(ArrayBufferSlice(d.buffer, d.byteOffset, d.byteOffset + d.byteLength));
      }));
    },
    encrypt: subtleUnavailable("encrypt"), decrypt: subtleUnavailable("decrypt"),
    sign: subtleUnavailable("sign"), verify: subtleUnavailable("verify"),
    generateKey: subtleUnavailable("generateKey"), deriveKey: subtleUnavailable("deriveKey"),
    deriveBits: subtleUnavailable("deriveBits"), importKey: subtleUnavailable("importKey"),
    exportKey: subtleUnavailable("exportKey"), wrapKey: subtleUnavailable("wrapKey"),
    unwrapKey: subtleUnavailable("unwrapKey"),
  });

  const webcrypto = ObjectFreeze({
    getRandomValues,
    randomUUID: () => randomUUID(),
    subtle,
  });

  const exports = {
    createHash, createHmac, hash, getHashes, Hash, Hmac,
    randomBytes, pseudoRandomBytes: randomBytes, randomFillSync, randomFill, randomInt, randomUUID, getRandomValues,
    timingSafeEqual, webcrypto, subtle,
    getCiphers: () => [], getCurves: () => [],
    constants: ObjectFreeze({}),
  };
  const UNAVAILABLE = ["createCipheriv", "createDecipheriv", "createSign", "createVerify", "sign", "verify",
    "generateKeyPair", "generateKeyPairSync", "generateKey", "generateKeySync", "pbkdf2", "pbkdf2Sync", "scrypt",
    "scryptSync", "hkdf", "hkdfSync", "createECDH", "createDiffieHellman", "createDiffieHellmanGroup",
    "getDiffieHellman", "diffieHellman", "publicEncrypt", "publicDecrypt", "privateEncrypt", "privateDecrypt",
    "createPublicKey", "createPrivateKey", "createSecretKey", "KeyObject", "X509Certificate", "Certificate",
    "checkPrime", "checkPrimeSync", "generatePrime", "generatePrimeSync", "setEngine", "setFips", "getFips",
    "secureHeapUsed", "getCipherInfo"];
  for (let i = 0; i < UNAVAILABLE.length; i++) exports[UNAVAILABLE[i]] = unavailable(UNAVAILABLE[i]);
  return ObjectFreeze(exports);
})
