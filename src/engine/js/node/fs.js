/* node/fs.js — node:fs and node:fs/promises on the run's in-memory VFS (docs/vfs.md).
 *
 * Every call is one synchronous `fs` host op (src/host/effects/fs.c) carrying the virtual clock
 * as `now`; the host answers or fails with Node's message ("ENOENT: no such file or directory,
 * open '/x'"), which becomes an Error with Node's code, errno, syscall and path. The callback API
 * performs the call at once and calls back from a microtask; fs/promises returns promises of
 * the same calls. Bytes cross the seam as base64, in chunks of CHUNK bytes; reads return Buffers.
 *
 * Trusts nothing it is given: arguments are checked here the way Node checks them, and the host
 * checks everything again.
 *
 * Primordials (docs/primordials.md): the arguments of every `fs` call and what a read returns are
 * built on builtins captured before guest code (natives.primordials); the argument objects have no
 * prototype, so no setter a guest put on Object.prototype sees them. UTF-8 goes through
 * internal/text; other encodings and the Buffers Node returns through node:buffer.
 */
(function (require, natives, name) {
  "use strict";
  const P = natives.primordials, u = P.uncurry;
  const { ReflectApply, StringCtor, NumberCtor, ObjectKeys, ObjectFreeze, ObjectDefineProperty, NumberIsInteger, NumberIsFinite, MathMax, MathCeil, ArrayBufferIsView, TypeErrorCtor, ErrorCtor, PromiseCtor, PromiseOwn, PromiseResolve, PromiseThen, list, rec } = P;
  // globals and small forms in place of captures (docs/primordials.md: global bindings are not covered)
  const MathMin = (a, b) => (a < b ? a : b), MathRound = (x) => { const f = P.MathFloor(x); return x - f >= 0.5 ? f + 1 : f; }, Uint8ArrayCtor = Uint8Array, RangeErrorCtor = RangeError;
  const StringSlice = u(P.StringPrototypeSlice), StringIndexOf = u(P.StringPrototypeIndexOf);
  const StringStartsWith = u(P.StringPrototypeStartsWith), StringEndsWith = (s, t) => s.length >= t.length && StringSlice(s, s.length - t.length) === t;
  const StringToLowerCase = u(P.StringPrototypeToLowerCase), StringCharCodeAt = u(P.StringPrototypeCharCodeAt);
  const RegExpExec = u(P.RegExpPrototypeExec), TypedArraySubarray = u(P.TypedArrayPrototypeSubarray);
  const TypedArraySet = u(P.TypedArrayPrototypeSet), TypedArrayFill = u(P.TypedArrayPrototypeFill);
  const push = (l, v) => { l[l.length] = v; };
  const isUtf8 = (enc) => enc === "utf8" || enc === "utf-8";

  // Bytes per host call: well under the host's limit (FS_IO_MAX, 16 MiB), so that no single base64
  // string grows large.
  const CHUNK = 1024 * 1024;

  /* ---- errors ---- */

  const ERRNO = {
    __proto__: null,
    ENOENT: -2, EEXIST: -17, EISDIR: -21, ENOTDIR: -20, ENOTEMPTY: -39, EINVAL: -22, ENOSPC: -28,
    ENAMETOOLONG: -36, EPERM: -1, EBUSY: -16, EFBIG: -27, ENOSYS: -38, EACCES: -13,
  };

  // Error fields are defined (as plain assignment would make them), so no setter a guest put on
  // Object.prototype runs.
  const set = (err, k, v) => P.defineValue(err, k, v);
  function codedError(Ctor, code, message) {
    const err = new Ctor(message);
    set(err, "code", code);
    return err;
  }

  function describe(value) {
    if (value === null) return "null";
    if (value === undefined) return "undefined";
    if (typeof value === "function") return "function " + (value.name || "<anonymous>");
    if (typeof value === "object") return "an instance of " + ((value.constructor && value.constructor.name) || "Object");
    let shown = typeof value === "string" ? "'" + StringSlice(value, 0, 28) + (value.length > 28 ? "...'" : "'") : StringCtor(value);
    return "type " + typeof value + " (" + shown + ")";
  }

  function argTypeError(argName, expected, value) {
    return codedError(TypeError, "ERR_INVALID_ARG_TYPE",
      "The \"" + argName + "\" argument must be " + expected + ". Received " + describe(value));
  }

  // An error thrown by the host for an fs call → a Node-style system error.
  function systemError(e, path, dest) {
    const message = natives.messageOfError(e);
    if (message === "fs is disabled by CHIDORI_TS_FS=none")
      return codedError(Error, "ERR_CHIDORI_FS_DISABLED", "node:fs is unavailable: fs is disabled by CHIDORI_TS_FS=none");
    const m = RegExpExec(/^(E[A-Z]+): [^,]*, ([a-z]+)/, message);
    if (!m) return e instanceof Error ? e : new ErrorCtor(message);
    if (m[1] === "EISDIR" && m[2] === "rm") { // Node's own wording for rm on a directory
      const err = codedError(Error, "ERR_FS_EISDIR", "Path is a directory: rm returned EISDIR (is a directory) " + path);
      set(err, "errno", 21);
      set(err, "syscall", "rm");
      set(err, "path", path);
      return err;
    }
    const err = new ErrorCtor(message);
    set(err, "errno", ERRNO[m[1]] !== undefined ? ERRNO[m[1]] : -22);
    set(err, "code", m[1]);
    set(err, "syscall", m[2]);
    if (path !== undefined && StringIndexOf(message, "'") >= 0) set(err, "path", path);
    if (dest !== undefined) set(err, "dest", dest);
    return err;
  }

  function unsupported(what, why) {
    return function () {
      throw codedError(Error, "ERR_CHIDORI_UNSUPPORTED", "fs." + what + " is not supported in chidori: " + why);
    };
  }
  const NO_FD = "there are no file descriptors; use readFile/writeFile/appendFile";
  const NO_STREAM = "there are no fs streams; use readFile/writeFile/appendFile";
  const NO_WATCH = "nothing changes the VFS but the agent itself";

  function noLinks(syscall, target, path) {
    const err = new Error("ENOSYS: function not implemented, " + syscall + " '" + target + "'" +
      (path !== undefined ? " -> '" + path + "'" : "") + " (chidori's VFS has no links)");
    set(err, "errno", ERRNO.ENOSYS);
    set(err, "code", "ENOSYS");
    set(err, "syscall", syscall);
    set(err, "path", target);
    if (path !== undefined) set(err, "dest", path);
    return err;
  }

  /* ---- bytes: UTF-8 and base64 from internal/text, encodings from node:buffer ---- */

  const text = require("internal/text");
  let BufferCtor = null; // node:buffer, loaded on first use
  function getBuffer() {
    if (BufferCtor === null) BufferCtor = require("buffer").Buffer;
    return BufferCtor;
  }
  // What Node returns where it returns a Buffer.
  const asBuffer = (bytes) => text.asBuffer(bytes);

  // The host's base64 (canonical, padded) four characters at a time: faster than the lenient
  // decoder Buffer needs for guest strings.
  const B64_VALUE = TypedArrayFill(new Int16Array(128), -1);
  for (let i = 0; i < 64; i++) B64_VALUE[StringCharCodeAt("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", i)] = i;
  function fromHostBase64(data) {
    const len = data.length, at = text.codeUnitReader();
    if (len === 0) return new Uint8ArrayCtor(0);
    const pad = (at(data, len - 1) === 61 ? 1 : 0) + (at(data, len - 2) === 61 ? 1 : 0);
    const out = new Uint8ArrayCtor((len >> 2) * 3 - pad);
    const T = B64_VALUE, full = pad ? len - 4 : len;
    let o = 0, i = 0;
    for (; i < full; i += 4) {
      const v = (T[at(data, i)] << 18) | (T[at(data, i + 1)] << 12) |
        (T[at(data, i + 2)] << 6) | T[at(data, i + 3)];
      out[o] = v >> 16; out[o + 1] = (v >> 8) & 255; out[o + 2] = v & 255;
      o += 3;
    }
    if (pad) {
      const v = (T[at(data, i)] << 18) | (T[at(data, i + 1)] << 12) | (pad === 1 ? T[at(data, i + 2)] << 6 : 0);
      out[o++] = v >> 16;
      if (pad === 1) out[o] = (v >> 8) & 255;
    }
    return out;
  }

  function normalizeEncoding(enc) {
    if (enc === undefined || enc === null || enc === "buffer") return null;
    if (isUtf8(enc)) return enc;
    if (typeof enc !== "string" || !getBuffer().isEncoding(enc))
      throw codedError(TypeErrorCtor, "ERR_INVALID_ARG_VALUE", "The argument 'encoding' is invalid encoding. Received " + describe(enc));
    return StringToLowerCase(enc);
  }

  function encodeString(str, enc) {
    if (isUtf8(enc)) return text.utf8Encode(str);
    const b = getBuffer().from(str, enc);
    return new Uint8ArrayCtor(b.buffer, b.byteOffset, b.byteLength);
  }

  function decodeBytes(bytes, enc) {
    if (isUtf8(enc)) return text.utf8Decode(bytes);
    const b = asBuffer(bytes);
    return enc === null ? b : b.toString(enc);
  }

  // A name or path the host gave (a string) in the encoding asked for.
  function nameIn(name, enc) {
    return enc === "utf8" || enc === "utf-8" ? name : decodeBytes(text.utf8Encode(name), enc);
  }

  /* ---- arguments ---- */

  function toPath(p, argName) {
    argName = argName || "path";
    if (typeof p === "string") {
      if (StringIndexOf(p, "\u0000") >= 0)
        throw codedError(TypeErrorCtor, "ERR_INVALID_ARG_VALUE", "The argument '" + argName +
          "' must be a string, Uint8Array, or URL without null bytes. Received " + describe(p));
      return p;
    }
    if (p instanceof Uint8Array) return toPath(text.utf8Decode(p), argName);
    if (p !== null && typeof p === "object" && typeof p.href === "string" && typeof p.protocol === "string") {
      if (p.protocol !== "file:") throw codedError(TypeErrorCtor, "ERR_INVALID_URL_SCHEME", "The URL must be of scheme file");
      return toPath(P.DecodeURIComponent(p.pathname), argName);
    }
    throw argTypeError(argName, "of type string or an instance of Buffer or URL", p);
  }

  // defaults (ours) overlaid with the guest's options: a record without a prototype.
  function optionsOf(options, defaults) {
    const o = { __proto__: null };
    const from = (src) => { const ks = ObjectKeys(src); for (let i = 0; i < ks.length; i++) o[ks[i]] = src[ks[i]]; };
    from(defaults);
    if (options === undefined || options === null) return o;
    if (typeof options === "string") { o.encoding = options; return o; }
    if (typeof options !== "object") throw argTypeError("options", "of type string or an instance of Object", options);
    from(options);
    return o;
  }

  // Data for writeFile / appendFile as bytes.
  function toBytes(data, encoding) {
    if (typeof data === "string") return encodeString(data, normalizeEncoding(encoding) || "utf8");
    if (ArrayBufferIsView(data)) return new Uint8ArrayCtor(data.buffer, data.byteOffset, data.byteLength);
    throw argTypeError("data", "of type string or an instance of Buffer, TypedArray, or DataView", data);
  }

  const O = { __proto__: null, O_RDONLY: 0, O_WRONLY: 1, O_RDWR: 2, O_CREAT: 64, O_EXCL: 128, O_TRUNC: 512, O_APPEND: 1024 };

  function writeFlag(flag, def) {
    if (flag === undefined || flag === null) return def;
    if (typeof flag === "number") return ((flag & O.O_APPEND) ? "a" : "w") + ((flag & O.O_EXCL) ? "x" : "");
    if (typeof flag !== "string") throw argTypeError("flag", "of type string or number", flag);
    return flag;
  }

  function modeOf(mode, def, argName) {
    if (mode === undefined || mode === null) return def;
    if (typeof mode === "string") {
      if (RegExpExec(/^[0-7]+$/, mode) === null)
        throw codedError(TypeErrorCtor, "ERR_INVALID_ARG_VALUE", "The argument '" + argName + "' must be a 32-bit unsigned integer or an octal string. Received " + describe(mode));
      mode = parseInt(mode, 8);
    }
    if (typeof mode !== "number" || !NumberIsInteger(mode) || mode < 0 || mode > 0xffffffff)
      throw codedError(RangeErrorCtor, "ERR_OUT_OF_RANGE", "The value of \"" + argName + "\" is out of range. Received " + StringCtor(mode));
    return mode & 0o7777;
  }

  /* ---- the seam ---- */

  // args: an object literal of ours; it loses its prototype before anything is written to it
  function call(action, args, path, dest) {
    args = rec(args);
    args.action = action;
    args.now = natives.now();
    try {
      return natives.callSync("fs", args);
    } catch (e) {
      throw systemError(e, path, dest);
    }
  }

  function readAll(p) {
    const chunks = list();
    let offset = 0, size = 0, total = 0;
    do {
      const r = call("read", { path: p, offset, length: CHUNK }, p);
      const bytes = fromHostBase64(r.data);
      size = r.size;
      push(chunks, bytes);
      total += bytes.length;
      offset += bytes.length;
      if (bytes.length === 0) break;
    } while (offset < size);
    if (chunks.length === 1) return chunks[0];
    const out = new Uint8ArrayCtor(total);
    let o = 0;
    for (let i = 0; i < chunks.length; i++) { TypedArraySet(out, chunks[i], o); o += chunks[i].length; }
    return out;
  }

  function writeAll(p, bytes, flag, mode) {
    for (let start = 0; ; start += CHUNK) {
      const part = TypedArraySubarray(bytes, start, MathMin(bytes.length, start + CHUNK));
      call("write", { path: p, data: text.bytesToBase64(part, false), flag: start === 0 ? flag : "a", mode }, p);
      if (start + CHUNK >= bytes.length) break;
    }
  }

  /* ---- Stats and Dirent ---- */

  const S_IFMT = 0o170000, S_IFREG = 0o100000, S_IFDIR = 0o040000, S_IFLNK = 0o120000;

  class Stats {
    // own from the start (defined, not assigned): no setter a guest put on Object.prototype runs
    dev; mode; nlink; uid; gid; rdev; blksize; ino; size; blocks; atimeMs; mtimeMs; ctimeMs; birthtimeMs;
    atime; mtime; ctime; birthtime;
    constructor(s, bigint) {
      const num = bigint ? (x) => BigInt(x) : (x) => x;
      this.dev = num(2049);
      this.mode = num(s.mode);
      this.nlink = num(s.nlink);
      this.uid = num(0);
      this.gid = num(0);
      this.rdev = num(0);
      this.blksize = num(4096);
      this.ino = num(s.ino);
      this.size = num(s.size);
      this.blocks = num(MathCeil(s.size / 4096) * 8);
      this.atimeMs = num(s.atimeMs);
      this.mtimeMs = num(s.mtimeMs);
      this.ctimeMs = num(s.ctimeMs);
      this.birthtimeMs = num(s.birthtimeMs);
      if (bigint) {
        P.defineValue(this, "atimeNs", BigInt(s.atimeMs) * 1000000n);
        P.defineValue(this, "mtimeNs", BigInt(s.mtimeMs) * 1000000n);
        P.defineValue(this, "ctimeNs", BigInt(s.ctimeMs) * 1000000n);
        P.defineValue(this, "birthtimeNs", BigInt(s.birthtimeMs) * 1000000n);
      }
      this.atime = new Date(s.atimeMs);
      this.mtime = new Date(s.mtimeMs);
      this.ctime = new Date(s.ctimeMs);
      this.birthtime = new Date(s.birthtimeMs);
    }
    isFile() { return (NumberCtor(this.mode) & S_IFMT) === S_IFREG; }
    isDirectory() { return (NumberCtor(this.mode) & S_IFMT) === S_IFDIR; }
    isSymbolicLink() { return (NumberCtor(this.mode) & S_IFMT) === S_IFLNK; }
    isBlockDevice() { return false; }
    isCharacterDevice() { return false; }
    isFIFO() { return false; }
    isSocket() { return false; }
  }

  class Dirent {
    name; parentPath; path; // defined, not assigned
    constructor(name, type, parentPath) {
      this.name = name;
      this.parentPath = parentPath;
      this.path = parentPath;
      ObjectDefineProperty(this, "_type", { __proto__: null, value: type, enumerable: false });
    }
    isFile() { return this._type === "file"; }
    isDirectory() { return this._type === "directory"; }
    isSymbolicLink() { return false; }
    isBlockDevice() { return false; }
    isCharacterDevice() { return false; }
    isFIFO() { return false; }
    isSocket() { return false; }
  }

  /* ---- the synchronous API ---- */

  function readFileSync(path, options) {
    const o = optionsOf(options, { encoding: null, flag: "r" });
    const enc = normalizeEncoding(o.encoding);
    if (typeof path === "number") return unsupported("readFileSync(fd)", NO_FD)();
    return decodeBytes(readAll(toPath(path)), enc);
  }

  function writeFileSync(path, data, options) {
    const o = optionsOf(options, { encoding: "utf8", mode: 0o666, flag: "w" });
    if (typeof path === "number") return unsupported("writeFileSync(fd)", NO_FD)();
    const p = toPath(path);
    writeAll(p, toBytes(data, o.encoding), writeFlag(o.flag, "w"), modeOf(o.mode, 0o666, "mode"));
  }

  function appendFileSync(path, data, options) {
    const o = optionsOf(options, { encoding: "utf8", mode: 0o666, flag: "a" });
    if (typeof path === "number") return unsupported("appendFileSync(fd)", NO_FD)();
    const p = toPath(path);
    writeAll(p, toBytes(data, o.encoding), writeFlag(o.flag, "a"), modeOf(o.mode, 0o666, "mode"));
  }

  function listDir(p) {
    return call("readdir", { path: p }, p).entries;
  }

  function joinPath(dir, name) {
    return StringEndsWith(dir, "/") ? dir + name : dir + "/" + name;
  }

  function readdirSync(path, options) {
    const o = optionsOf(options, { encoding: "utf8", withFileTypes: false, recursive: false });
    const enc = normalizeEncoding(o.encoding);
    const root = toPath(path);
    const nameOut = (n) => nameIn(n, enc);
    const results = [];
    const queue = list(); // rec(dir: path to list, rel: its path relative to root)
    push(queue, { __proto__: null, dir: root, rel: "" });
    for (let q = 0; q < queue.length; q++) {
      const dir = queue[q].dir, rel = queue[q].rel;
      const entries = listDir(dir);
      for (let i = 0; i < entries.length; i++) {
        const e = entries[i];
        if (o.withFileTypes) P.defineValue(results, results.length, new Dirent(nameOut(e.name), e.type, dir));
        else P.defineValue(results, results.length, nameOut(rel ? rel + "/" + e.name : e.name));
        if (o.recursive && e.type === "directory") push(queue, { __proto__: null, dir: joinPath(dir, e.name), rel: rel ? rel + "/" + e.name : e.name });
      }
      if (!o.recursive) break;
    }
    return results;
  }

  function mkdirSync(path, options) {
    let recursive = false, mode = 0o777;
    if (typeof options === "number" || typeof options === "string") mode = modeOf(options, 0o777, "mode");
    else if (options !== undefined && options !== null) {
      if (typeof options !== "object") throw argTypeError("options", "of type object", options);
      recursive = Boolean(options.recursive);
      mode = modeOf(options.mode, 0o777, "mode");
    }
    const p = toPath(path);
    const r = call("mkdir", { path: p, recursive, mode }, p);
    if (!recursive || r.first === null) return undefined;
    return p[0] === "/" ? r.first : StringSlice(r.first, 1); // Node answers in the form it was asked (cwd is "/")
  }

  function statCall(kind, path, options) {
    const o = optionsOf(options, { bigint: false, throwIfNoEntry: true });
    const p = toPath(path);
    try {
      return new Stats(call(kind, { path: p }, p), Boolean(o.bigint));
    } catch (e) {
      if (o.throwIfNoEntry === false && (e.code === "ENOENT" || e.code === "ENOTDIR")) return undefined;
      throw e;
    }
  }
  const statSync = (path, options) => statCall("stat", path, options);
  const lstatSync = (path, options) => statCall("lstat", path, options);

  function existsSync(path) {
    let p;
    try { p = toPath(path); } catch (_) { return false; }
    try {
      return call("exists", { path: p }, p) === true;
    } catch (e) {
      if (e.code === "ERR_CHIDORI_FS_DISABLED") throw e;
      return false;
    }
  }

  function accessSync(path, mode) {
    if (mode !== undefined && (typeof mode !== "number" || !NumberIsInteger(mode) || mode < 0 || mode > 7))
      throw codedError(RangeErrorCtor, "ERR_OUT_OF_RANGE", "The value of \"mode\" is out of range. It must be an integer >= 0 && <= 7. Received " + StringCtor(mode));
    const p = toPath(path);
    call("access", { path: p }, p);
  }

  function unlinkSync(path) { const p = toPath(path); call("unlink", { path: p }, p); }

  function rmdirSync(path, options) {
    const p = toPath(path);
    call("rmdir", { path: p, recursive: Boolean(options && options.recursive) }, p);
  }

  function rmSync(path, options) {
    const o = optionsOf(options, { recursive: false, force: false });
    const p = toPath(path);
    call("rm", { path: p, recursive: Boolean(o.recursive), force: Boolean(o.force) }, p);
  }

  function renameSync(oldPath, newPath) {
    const a = toPath(oldPath, "oldPath"), b = toPath(newPath, "newPath");
    call("rename", { from: a, to: b }, a, b);
  }

  function copyFileSync(src, dest, mode) {
    const a = toPath(src, "src"), b = toPath(dest, "dest");
    if (mode !== undefined && (typeof mode !== "number" || !NumberIsInteger(mode) || mode < 0 || mode > 7))
      throw codedError(RangeErrorCtor, "ERR_OUT_OF_RANGE", "The value of \"mode\" is out of range. It must be an integer >= 0 && <= 7. Received " + StringCtor(mode));
    call("copyFile", { from: a, to: b, exclusive: Boolean(mode & 1) }, a, b);
  }

  function truncateSync(path, len) {
    if (typeof path === "number") return unsupported("ftruncateSync", NO_FD)();
    if (len === undefined || len === null) len = 0;
    if (typeof len !== "number") throw argTypeError("len", "of type number", len);
    if (!NumberIsInteger(len))
      throw codedError(RangeErrorCtor, "ERR_OUT_OF_RANGE", "The value of \"len\" is out of range. It must be an integer. Received " + StringCtor(len));
    const p = toPath(path);
    call("truncate", { path: p, length: MathMax(0, len) }, p);
  }

  function realpathSync(path, options) {
    const o = optionsOf(options, { encoding: "utf8" });
    const enc = normalizeEncoding(o.encoding);
    const p = toPath(path);
    const real = call("realpath", { path: p }, p).path;
    return nameIn(real, enc);
  }
  realpathSync.native = realpathSync;

  function mkdtempSync(prefix, options) {
    const o = optionsOf(options, { encoding: "utf8" });
    const enc = normalizeEncoding(o.encoding);
    const pre = toPath(prefix, "prefix");
    let made;
    try {
      made = natives.callSync("fs", { __proto__: null, action: "mkdtemp", prefix: pre, now: natives.now() });
    } catch (e) {
      throw systemError(e, pre + "XXXXXX");
    }
    return nameIn(made.path, enc);
  }

  function chmodSync(path, mode) {
    const p = toPath(path);
    call("chmod", { path: p, mode: modeOf(mode, undefined, "mode") }, p);
  }

  function timeMs(t, argName) {
    if (t instanceof Date) return t.getTime();
    if (typeof t === "string" && t !== "" && NumberIsFinite(NumberCtor(t))) t = NumberCtor(t);
    if (typeof t === "number" && NumberIsFinite(t)) return MathRound(t * 1000);
    throw argTypeError(argName, "of type number, string, or an instance of Date", t);
  }

  function utimesSync(path, atime, mtime) {
    const p = toPath(path);
    call("utimes", { path: p, atime: timeMs(atime, "atime"), mtime: timeMs(mtime, "mtime") }, p);
  }

  function chownSync(path, uid, gid) {
    const p = toPath(path);
    call("access", { path: p }, p); // ownership is not modelled: only existence is checked
  }

  function readlinkSync(path) {
    const p = toPath(path);
    try {
      call("lstat", { path: p }, p);
    } catch (e) {
      if (e.syscall) {
        e.syscall = "readlink";
        const at = StringIndexOf(e.message, ", lstat '");
        if (at >= 0) e.message = StringSlice(e.message, 0, at) + ", readlink '" + StringSlice(e.message, at + 9);
      }
      throw e;
    }
    const err = new ErrorCtor("EINVAL: invalid argument, readlink '" + p + "'"); // nothing is a link
    set(err, "errno", ERRNO.EINVAL); set(err, "code", "EINVAL"); set(err, "syscall", "readlink"); set(err, "path", p);
    throw err;
  }

  function symlinkSync(target, path) { throw noLinks("symlink", String(target), String(path)); }
  function linkSync(existingPath, newPath) { throw noLinks("link", String(existingPath), String(newPath)); }

  /* ---- callbacks and promises over the same calls ---- */

  function isArgumentError(e) {
    return e !== null && typeof e === "object" && typeof e.code === "string" &&
      (StringStartsWith(e.code, "ERR_INVALID_ARG") || e.code === "ERR_OUT_OF_RANGE" || e.code === "ERR_INVALID_URL_SCHEME");
  }

  // fs.x(...args, callback): the call happens now; the callback runs from a microtask.
  function callbackify(fn) {
    return function (...args) {
      const cb = args[args.length - 1];
      const rest = list();
      for (let i = 0; i < args.length - 1; i++) rest[i] = args[i];
      if (typeof cb !== "function") throw argTypeError("cb", "of type function", cb);
      let result, error = null;
      try {
        result = ReflectApply(fn, undefined, rest);
      } catch (e) {
        if (isArgumentError(e)) throw e;
        error = e;
      }
      PromiseThen(PromiseResolve(undefined), () => (error ? cb(error) : result === undefined ? cb(null) : cb(null, result)));
    };
  }

  function promisify(fn) {
    return function (...args) {
      return PromiseOwn(new PromiseCtor((resolve) => resolve(ReflectApply(fn, undefined, args))));
    };
  }

  const constants = ObjectFreeze({
    F_OK: 0, R_OK: 4, W_OK: 2, X_OK: 1,
    COPYFILE_EXCL: 1, COPYFILE_FICLONE: 2, COPYFILE_FICLONE_FORCE: 4,
    UV_FS_COPYFILE_EXCL: 1, UV_FS_COPYFILE_FICLONE: 2, UV_FS_COPYFILE_FICLONE_FORCE: 4,
    O_RDONLY: 0, O_WRONLY: 1, O_RDWR: 2, O_CREAT: 64, O_EXCL: 128, O_NOCTTY: 256, O_TRUNC: 512,
    O_APPEND: 1024, O_DIRECTORY: 65536, O_NOFOLLOW: 131072, O_SYNC: 1052672, O_DSYNC: 4096,
    S_IFMT, S_IFREG, S_IFDIR, S_IFCHR: 0o020000, S_IFBLK: 0o060000, S_IFIFO: 0o010000, S_IFLNK, S_IFSOCK: 0o140000,
    S_IRWXU: 0o700, S_IRUSR: 0o400, S_IWUSR: 0o200, S_IXUSR: 0o100,
    S_IRWXG: 0o70, S_IRGRP: 0o40, S_IWGRP: 0o20, S_IXGRP: 0o10,
    S_IRWXO: 0o7, S_IROTH: 0o4, S_IWOTH: 0o2, S_IXOTH: 0o1,
  });

  const SYNC = {
    readFile: readFileSync, writeFile: writeFileSync, appendFile: appendFileSync, readdir: readdirSync,
    mkdir: mkdirSync, rm: rmSync, rmdir: rmdirSync, rename: renameSync, stat: statSync, lstat: lstatSync,
    unlink: unlinkSync, copyFile: copyFileSync, access: accessSync, truncate: truncateSync,
    realpath: realpathSync, mkdtemp: mkdtempSync, chmod: chmodSync, utimes: utimesSync, lutimes: utimesSync,
    chown: chownSync, lchown: chownSync, readlink: readlinkSync, symlink: symlinkSync, link: linkSync,
  };

  const promises = { constants };
  const fs = {
    constants, Stats, Dirent,
    existsSync,
    exists(path, cb) {
      if (typeof cb !== "function") throw argTypeError("cb", "of type function", cb);
      const found = existsSync(path);
      PromiseThen(PromiseResolve(undefined), () => cb(found));
    },
    promises,
  };
  const syncKeys = ObjectKeys(SYNC);
  for (let i = 0; i < syncKeys.length; i++) {
    const key = syncKeys[i];
    fs[key + "Sync"] = SYNC[key];
    fs[key] = callbackify(SYNC[key]);
    promises[key] = promisify(SYNC[key]);
  }
  fs.realpath.native = fs.realpath;

  const NO_FD_NAMES = ["openSync", "closeSync", "readSync", "writeSync", "fstatSync", "fsyncSync", "ftruncateSync",
    "futimesSync", "fchmodSync", "fchownSync", "fdatasyncSync", "readvSync", "writevSync", "opendirSync",
    "open", "close", "read", "write", "fstat", "fsync", "ftruncate", "futimes", "fchmod", "fchown",
    "fdatasync", "readv", "writev", "opendir"];
  for (let i = 0; i < NO_FD_NAMES.length; i++) fs[NO_FD_NAMES[i]] = unsupported(NO_FD_NAMES[i], NO_FD);
  promises.open = (...a) => new Promise(() => unsupported("promises.open", NO_FD)());
  promises.opendir = (...a) => new Promise(() => unsupported("promises.opendir", NO_FD)());
  fs.createReadStream = unsupported("createReadStream", NO_STREAM);
  fs.createWriteStream = unsupported("createWriteStream", NO_STREAM);
  fs.watch = unsupported("watch", NO_WATCH);
  fs.watchFile = unsupported("watchFile", NO_WATCH);
  fs.unwatchFile = unsupported("unwatchFile", NO_WATCH);
  promises.watch = unsupported("promises.watch", NO_WATCH);
  fs.F_OK = 0; fs.R_OK = 4; fs.W_OK = 2; fs.X_OK = 1;

  ObjectFreeze(promises);
  return ObjectFreeze(fs);
})
