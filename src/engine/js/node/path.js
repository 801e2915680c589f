/* node/path.js — node:path, POSIX flavour only: a chidori run has no host file system and its
 * VFS is POSIX, so the working directory is "/". `path.posix` is the module itself; `path.win32`
 * has Node's functions over Windows paths (internal_path_win32*.js; resolve against the run's
 * working directory "/", as Node on Linux started in "/").
 *
 * Pure string computation; every argument is validated as Node validates it. */
(function (require, natives, name) {
  "use strict";
  const { invalidArgType, codedError } = require("internal/text");

  function validateString(value, what) {
    if (typeof value !== "string") throw invalidArgType(what, "of type string", value);
  }

  // Resolves "." and ".." segments of a path without its root; ".." above the start is kept when
  // allowAboveRoot (relative paths) and dropped otherwise.
  function normalizeSegments(path, allowAboveRoot) {
    const out = [];
    const parts = path.split("/");
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i];
      if (part === "" || part === ".") continue;
      if (part === "..") {
        if (out.length && out[out.length - 1] !== "..") out.pop();
        else if (allowAboveRoot) out.push("..");
        continue;
      }
      out.push(part);
    }
    return out.join("/");
  }

  function resolve(...args) {
    let resolved = "";
    let absolute = false;
    for (let i = args.length - 1; i >= -1 && !absolute; i--) {
      const p = i >= 0 ? args[i] : "/";
      validateString(p, "paths[" + i + "]");
      if (p.length === 0) continue;
      resolved = p + "/" + resolved;
      absolute = p.charCodeAt(0) === 47;
    }
    resolved = normalizeSegments(resolved, !absolute);
    if (absolute) return "/" + resolved;
    return resolved.length > 0 ? resolved : ".";
  }

  function normalize(path) {
    validateString(path, "path");
    if (path.length === 0) return ".";
    const absolute = path.charCodeAt(0) === 47;
    const trailing = path.charCodeAt(path.length - 1) === 47;
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
    return path.length > 0 && path.charCodeAt(0) === 47;
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
    const a = from === "/" ? [] : from.slice(1).split("/");
    const b = to === "/" ? [] : to.slice(1).split("/");
    let common = 0;
    while (common < a.length && common < b.length && a[common] === b[common]) common++;
    const up = [];
    for (let i = common; i < a.length; i++) up.push("..");
    return up.concat(b.slice(common)).join("/");
  }

  function toNamespacedPath(path) {
    return path;
  }

  function dirname(path) {
    validateString(path, "path");
    if (path.length === 0) return ".";
    const hasRoot = path.charCodeAt(0) === 47;
    let end = -1;
    let trailing = true; // still inside the run of slashes at the end
    for (let i = path.length - 1; i >= 1; i--) {
      if (path.charCodeAt(i) === 47) {
        if (!trailing) { end = i; break; }
      } else {
        trailing = false;
      }
    }
    if (end === -1) return hasRoot ? "/" : ".";
    if (hasRoot && end === 1) return "//";
    return path.slice(0, end);
  }

  // [start, end) of the last segment, trailing slashes excluded.
  function lastSegment(path) {
    let end = path.length;
    while (end > 0 && path.charCodeAt(end - 1) === 47) end--;
    let start = end;
    while (start > 0 && path.charCodeAt(start - 1) !== 47) start--;
    return [start, end];
  }

  function basename(path, suffix) {
    if (suffix !== undefined) validateString(suffix, "suffix");
    validateString(path, "path");
    const [start, end] = lastSegment(path);
    const base = path.slice(start, end);
    if (suffix !== undefined && suffix.length > 0 && base.endsWith(suffix)) {
      // Node strips a suffix equal to the whole argument ("a.js", "a.js" → "") but keeps a last
      // segment equal to the suffix otherwise ("/x/.env", "a/" with "a").
      if (base === suffix && path !== suffix) return base;
      return base.slice(0, base.length - suffix.length);
    }
    return base;
  }

  function extOf(base) {
    if (base === "..") return "";
    const dot = base.lastIndexOf(".");
    return dot <= 0 ? "" : base.slice(dot);
  }

  function extname(path) {
    validateString(path, "path");
    const [start, end] = lastSegment(path);
    return extOf(path.slice(start, end));
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
    const absolute = path.charCodeAt(0) === 47;
    if (absolute) ret.root = "/";
    const [start, end] = lastSegment(path);
    if (end === 0) {
      ret.dir = absolute ? "/" : "";
      return ret;
    }
    ret.base = path.slice(start, end);
    // Node reads the last segment of "/.." as name "." with extension "."; kept for parity.
    ret.ext = start === 1 && ret.base === ".." ? "." : extOf(ret.base);
    ret.name = ret.ext ? ret.base.slice(0, ret.base.length - ret.ext.length) : ret.base;
    if (start > 0) {
      ret.dir = path.slice(0, start - 1);
      if (ret.dir === "" && absolute) ret.dir = "/";
    } else if (absolute) {
      ret.dir = "/";
    }
    return ret;
  }

  function matchesGlob() {
    throw codedError(Error, "ERR_CHIDORI_UNSUPPORTED", "path.matchesGlob is not available in chidori");
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

  posix.posix = posix;
  win32.posix = posix;
  posix.win32 = Object.freeze(win32);
  return Object.freeze(posix);
})
