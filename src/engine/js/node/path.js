/* node/path.js — node:path, POSIX flavour only: a chidori run has no host file system and its
 * VFS is POSIX, so the working directory is "/". `path.posix` is the module itself; `path.win32`
 * has Node's functions over Windows paths (internal_path_win32*.js; resolve against the run's
 * working directory "/", as Node on Linux started in "/").
 *
 * Pure string computation; every argument is validated as Node validates it. */
(function (require, natives, name) {
  "use strict";
  // Only builtins captured before guest code ran (natives.primordials), and lists without a
  // prototype: a guest that replaces String/Array methods or the array iterator changes nothing
  // here (docs/primordials.md).
  const Q = natives.primordials;

  // Node's coded errors, made here (internal/text's helpers would read live builtins). An object
  // or function argument is described by internal/text (util.inspect), loaded only then.
  function codedError(Ctor, code, message) {
    const err = new Ctor(message);
    Q.defineValue(err, "code", code);
    return err;
  }
  function received(value) {
    switch (typeof value) {
      case "undefined": return " Received undefined";
      case "string": {
        const shown = "'" + value + "'";
        return " Received type string (" + (shown.length > 28 ? strSlice(shown, 0, 25) + "..." : shown) + ")";
      }
      case "number": case "boolean": {
        const shown = value === 0 && 1 / value < 0 ? "-0" : Q.StringCtor(value);
        return " Received type " + typeof value + " (" + shown + ")";
      }
      case "bigint": return " Received type bigint (" + Q.StringCtor(value) + "n)";
      default: return value === null ? " Received null" : null;
    }
  }
  function invalidArgType(what, expected, value) {
    const tail = received(value);
    if (tail === null) return require("internal/text").invalidArgType(what, expected, value);
    return codedError(Q.TypeErrorCtor, "ERR_INVALID_ARG_TYPE",
      'The "' + what + '" argument must be ' + expected + "." + tail);
  }
  const ReflectApply = Q.ReflectApply, list = Q.list;
  const StringPrototypeSlice = Q.StringPrototypeSlice, StringPrototypeCharCodeAt = Q.StringPrototypeCharCodeAt;
  const StringPrototypeLastIndexOf = Q.StringPrototypeLastIndexOf, StringPrototypeEndsWith = Q.StringPrototypeEndsWith;
  const StringPrototypeIndexOf = Q.StringPrototypeIndexOf;
  const strSlice = Q.uncurryThis(StringPrototypeSlice);
  const charCodeAt = Q.uncurryThis(StringPrototypeCharCodeAt);
  const lastIndexOf = (s, t) => ReflectApply(StringPrototypeLastIndexOf, s, [t]);
  const endsWith = (s, t) => ReflectApply(StringPrototypeEndsWith, s, [t]);
  // the segments of s between "/" (one character), as a list
  function splitSlash(s) {
    const out = list();
    let start = 0;
    for (;;) {
      const i = ReflectApply(StringPrototypeIndexOf, s, ["/", start]);
      if (i < 0) break;
      out[out.length] = strSlice(s, start, i);
      start = i + 1;
    }
    out[out.length] = strSlice(s, start);
    return out;
  }
  // the items of a list joined by "/", from `start`
  function joinSlash(a, start) {
    let out = "";
    for (let i = start || 0; i < a.length; i++) out += (i > (start || 0) ? "/" : "") + a[i];
    return out;
  }

  function validateString(value, what) {
    if (typeof value !== "string") throw invalidArgType(what, "of type string", value);
  }

  // Resolves "." and ".." segments of a path without its root; ".." above the start is kept when
  // allowAboveRoot (relative paths) and dropped otherwise.
  function normalizeSegments(path, allowAboveRoot) {
    const out = list();
    const parts = splitSlash(path);
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i];
      if (part === "" || part === ".") continue;
      if (part === "..") {
        if (out.length && out[out.length - 1] !== "..") out.length--;
        else if (allowAboveRoot) out[out.length] = "..";
        continue;
      }
      out[out.length] = part;
    }
    return joinSlash(out, 0);
  }

  function resolve(...args) {
    let resolved = "";
    let absolute = false;
    for (let i = args.length - 1; i >= -1 && !absolute; i--) {
      const p = i >= 0 ? args[i] : "/";
      validateString(p, "paths[" + i + "]");
      if (p.length === 0) continue;
      resolved = p + "/" + resolved;
      absolute = charCodeAt(p, 0) === 47;
    }
    resolved = normalizeSegments(resolved, !absolute);
    if (absolute) return "/" + resolved;
    return resolved.length > 0 ? resolved : ".";
  }

  function normalize(path) {
    validateString(path, "path");
    if (path.length === 0) return ".";
    const absolute = charCodeAt(path, 0) === 47;
    const trailing = charCodeAt(path, path.length - 1) === 47;
    let p = normalizeSegments(path, !absolute);
    if (p.length === 0) {
      if (absolute) return "/";
      return trailing ? "./" : ".";
    }
    if (trailing) p += "/";
    return absolute ? "/" + p : p;
  }

  function isAbsolute(path) {
    validateString(path, "path");
    return path.length > 0 && charCodeAt(path, 0) === 47;
  }

  function join(...args) {
    if (args.length === 0) return ".";
    let joined;
    for (let i = 0; i < args.length; i++) {
      const arg = args[i];
      validateString(arg, "path");
      if (arg.length > 0) joined = joined === undefined ? arg : joined + "/" + arg;
    }
    if (joined === undefined) return ".";
    return normalize(joined);
  }

  function relative(from, to) {
    validateString(from, "from");
    validateString(to, "to");
    if (from === to) return "";
    from = resolve(from);
    to = resolve(to);
    if (from === to) return "";
    const a = from === "/" ? list() : splitSlash(strSlice(from, 1));
    const b = to === "/" ? list() : splitSlash(strSlice(to, 1));
    let common = 0;
    while (common < a.length && common < b.length && a[common] === b[common]) common++;
    let out = "";
    for (let i = common; i < a.length; i++) out += out === "" ? ".." : "/..";
    const rest = joinSlash(b, common);
    return out === "" ? rest : rest === "" ? out : out + "/" + rest;
  }

  function toNamespacedPath(path) {
    return path;
  }

  function dirname(path) {
    validateString(path, "path");
    if (path.length === 0) return ".";
    const hasRoot = charCodeAt(path, 0) === 47;
    let end = -1;
    let trailing = true; // still inside the run of slashes at the end
    for (let i = path.length - 1; i >= 1; i--) {
      if (charCodeAt(path, i) === 47) {
        if (!trailing) { end = i; break; }
      } else {
        trailing = false;
      }
    }
    if (end === -1) return hasRoot ? "/" : ".";
    if (hasRoot && end === 1) return "//";
    return strSlice(path, 0, end);
  }

  // The end of the last segment, trailing slashes excluded, and its start.
  function segmentEnd(path) {
    let end = path.length;
    while (end > 0 && charCodeAt(path, end - 1) === 47) end--;
    return end;
  }
  function segmentStart(path, end) {
    let start = end;
    while (start > 0 && charCodeAt(path, start - 1) !== 47) start--;
    return start;
  }

  function basename(path, suffix) {
    if (suffix !== undefined) validateString(suffix, "suffix");
    validateString(path, "path");
    const end = segmentEnd(path), start = segmentStart(path, end);
    const base = strSlice(path, start, end);
    if (suffix !== undefined && suffix.length > 0 && endsWith(base, suffix)) {
      // Node strips a suffix equal to the whole argument ("a.js", "a.js" → "") but keeps a last
      // segment equal to the suffix otherwise ("/x/.env", "a/" with "a").
      if (base === suffix && path !== suffix) return base;
      return strSlice(base, 0, base.length - suffix.length);
    }
    return base;
  }

  function extOf(base) {
    if (base === "..") return "";
    const dot = lastIndexOf(base, ".");
    return dot <= 0 ? "" : strSlice(base, dot);
  }

  function extname(path) {
    validateString(path, "path");
    const end = segmentEnd(path);
    return extOf(strSlice(path, segmentStart(path, end), end));
  }

  function format(pathObject) {
    if (pathObject === null || typeof pathObject !== "object")
      throw invalidArgType("pathObject", "of type object", pathObject);
    const dir = pathObject.dir || pathObject.root;
    let base = pathObject.base;
    if (!base) {
      const ext = pathObject.ext ? (pathObject.ext[0] === "." ? "" : ".") + pathObject.ext : "";
      base = (pathObject.name || "") + ext;
    }
    if (!dir) return base;
    return dir === pathObject.root ? dir + base : dir + "/" + base;
  }

  function parse(path) {
    validateString(path, "path");
    const ret = { root: "", dir: "", base: "", ext: "", name: "" };
    if (path.length === 0) return ret;
    const absolute = charCodeAt(path, 0) === 47;
    if (absolute) ret.root = "/";
    const end = segmentEnd(path), start = segmentStart(path, end);
    if (end === 0) {
      ret.dir = absolute ? "/" : "";
      return ret;
    }
    ret.base = strSlice(path, start, end);
    // Node reads the last segment of "/.." as name "." with extension "."; kept for parity.
    ret.ext = start === 1 && ret.base === ".." ? "." : extOf(ret.base);
    ret.name = ret.ext ? strSlice(ret.base, 0, ret.base.length - ret.ext.length) : ret.base;
    if (start > 0) {
      ret.dir = strSlice(path, 0, start - 1);
      if (ret.dir === "" && absolute) ret.dir = "/";
    } else if (absolute) {
      ret.dir = "/";
    }
    return ret;
  }

  function matchesGlob() {
    throw codedError(Q.ErrorCtor, "ERR_CHIDORI_UNSUPPORTED", "path.matchesGlob is not available in chidori");
  }

  const posix = {
    resolve, normalize, isAbsolute, join, relative, toNamespacedPath, dirname, basename, extname, format, parse,
    matchesGlob, sep: "/", delimiter: ":",
  };

  // path.win32: Node's rules over Windows paths (internal/path_win32 and, for resolve, relative,
  // toNamespacedPath, parse and format, internal/path_win32_resolve: resolve's working directory
  // is the run's "/", see there). matchesGlob throws as posix's does.
  const W = require("internal/path_win32");
  let WR = null;
  const wr = () => (WR === null ? (WR = require("internal/path_win32_resolve")) : WR);
  const win32 = {
    sep: "\\", delimiter: ";",
    isAbsolute(path) { validateString(path, "path"); return W.isAbsolute(path); },
    normalize(path) { validateString(path, "path"); return W.normalize(path); },
    join(...args) {
      for (let i = 0; i < args.length; i++) validateString(args[i], "path");
      return W.join(args);
    },
    dirname(path) { validateString(path, "path"); return W.dirname(path); },
    basename(path, suffix) {
      if (suffix !== undefined) validateString(suffix, "suffix");
      validateString(path, "path");
      return W.basename(path, suffix);
    },
    extname(path) { validateString(path, "path"); return W.extname(path); },
    resolve(...args) { return wr().resolve(args, (p, i) => validateString(p, "paths[" + i + "]")); },
    relative(from, to) {
      validateString(from, "from");
      validateString(to, "to");
      return wr().relative(from, to);
    },
    toNamespacedPath(path) { return wr().toNamespacedPath(path); },
    parse(path) { validateString(path, "path"); return wr().parse(path); },
    format(pathObject) {
      if (pathObject === null || typeof pathObject !== "object")
        throw invalidArgType("pathObject", "of type object", pathObject);
      return wr().format(pathObject);
    },
    matchesGlob,
  };

  // defined, not assigned: no setter a guest put on Object.prototype runs
  Q.defineValue(posix, "posix", posix);
  Q.defineValue(win32, "posix", posix);
  Q.defineValue(posix, "win32", Q.ObjectFreeze(win32));
  return Q.ObjectFreeze(posix);
})
