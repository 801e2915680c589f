/* node/internal_path_win32_resolve.js — path.win32's resolve, relative, toNamespacedPath, parse
 * and format, with Node's rules for drive letters, drive-relative paths ("C:foo") and UNC roots.
 *
 * The working directory: a run has no Windows one. Like Node running on Linux, resolve falls back
 * to the POSIX working directory, which in a run is always "/" (process.cwd()), so
 * win32.resolve("a") is "\\a" and win32.resolve("C:a") is "C:\\a" — exactly what Node 20 prints
 * when started in "/". There is no per-drive working directory ("=C:" variables): process.env is
 * empty, so a drive-relative path resolves against that drive's root.
 *
 * Pure computation over strings the caller (node/path.js) already validated. */
(function (require, natives, name) {
  "use strict";

  const W = require("internal/path_win32");
  const CWD = "/"; // the run's working directory (node/process.js cwd())

  const isSep = (c) => c === "\\" || c === "/";
  // Only builtins captured before guest code ran (natives.primordials): docs/primordials.md.
  const Q = natives.primordials;
  const ReflectApply = Q.ReflectApply;
  const StringPrototypeSlice = Q.StringPrototypeSlice, StringPrototypeToLowerCase = Q.StringPrototypeToLowerCase;
  const strSlice = Q.uncurryThis(StringPrototypeSlice);
  const toLowerCase = (s) => ReflectApply(StringPrototypeToLowerCase, s, []);
  const isDriveLetter = (c) => typeof c === "string" && c.length === 1 && ((c >= "A" && c <= "Z") || (c >= "a" && c <= "z"));

  // The root of one path: its device ("C:" or "\\\\server\\share"), where the root ends and
  // whether it is absolute.
  function rootOf(path) {
    const len = path.length;
    let rootEnd = 0, device = "", absolute = false;
    if (len === 1) {
      if (isSep(path[0])) { rootEnd = 1; absolute = true; }
    } else if (isSep(path[0])) {
      absolute = true;
      if (isSep(path[1])) {
        let j = 2;
        let last = j;
        while (j < len && !isSep(path[j])) j++;
        if (j < len && j !== last) {
          const server = strSlice(path, last, j);
          last = j;
          while (j < len && isSep(path[j])) j++;
          if (j < len && j !== last) {
            last = j;
            while (j < len && !isSep(path[j])) j++;
            if (j === len || j !== last) {
              if (server !== "." && server !== "?") {
                device = "\\\\" + server + "\\" + strSlice(path, last, j);
                rootEnd = j;
              } else {
                device = "\\\\" + server; // a device path ("\\\\.\\pipe", "\\\\?\\C:"): the rest is its tail
                rootEnd = 4;
              }
            }
          }
        }
      } else {
        rootEnd = 1;
      }
    } else if (isDriveLetter(path[0]) && path[1] === ":") {
      device = strSlice(path, 0, 2);
      rootEnd = 2;
      if (len > 2 && isSep(path[2])) { absolute = true; rootEnd = 3; }
    }
    return { device, rootEnd, absolute };
  }

  // check(path, index) validates an argument when the walk reaches it (Node checks no further).
  function resolve(args, check) {
    let resolvedDevice = "", resolvedTail = "", resolvedAbsolute = false;
    for (let i = args.length - 1; i >= -1; i--) {
      let path;
      if (i >= 0) {
        path = args[i];
        if (check) check(path, i);
        if (path.length === 0) continue;
      } else {
        // No Windows working directory (and no "=C:" per-drive one): the POSIX one, as Node on
        // Linux does. It carries no device, so a drive-relative path lands on its drive's root.
        path = CWD;
      }
      const { device, rootEnd, absolute } = rootOf(path);
      if (device.length > 0 && resolvedDevice.length > 0 && toLowerCase(device) !== toLowerCase(resolvedDevice)) {
        continue; // another drive: not part of this path
      }
      if (resolvedDevice.length === 0 && device.length > 0) resolvedDevice = device;
      if (resolvedAbsolute) {
        if (resolvedDevice.length > 0) break;
      } else {
        resolvedTail = strSlice(path, rootEnd) + "\\" + resolvedTail;
        resolvedAbsolute = absolute;
        if (absolute && resolvedDevice.length > 0) break;
      }
    }
    resolvedTail = W.normalizeTail(resolvedTail, !resolvedAbsolute);
    return resolvedAbsolute ? resolvedDevice + "\\" + resolvedTail : (resolvedDevice + resolvedTail) || ".";
  }

  function segments(p) {
    const out = [];
    let start = 0;
    for (let i = 0; i <= p.length; i++) {
      if (i < p.length && p[i] !== "\\") continue;
      Q.defineValue(out, out.length, strSlice(p, start, i));
      start = i + 1;
    }
    if (out.length > 0 && out[out.length - 1] === "") out.length--;
    return out;
  }
  function joinFrom(list, start) {
    let out = "";
    for (let i = start; i < list.length; i++) out += (i > start ? "\\" : "") + list[i];
    return out;
  }
  function relativeBySegments(fromOrig, toOrig) {
    const a = segments(fromOrig), b = segments(toOrig);
    const length = a.length < b.length ? a.length : b.length;
    let i = 0;
    while (i < length && toLowerCase(a[i]) === toLowerCase(b[i])) i++;
    if (i === 0) return toOrig;
    let up = "";
    if (i === length) {
      if (b.length > length) return joinFrom(b, i);
      if (a.length > length) {
        for (let k = i; k < a.length - 1; k++) up += "..\\";
        return up + "..";
      }
      return "";
    }
    for (let k = i; k < a.length; k++) up += "..\\";
    return up + joinFrom(b, i);
  }

  function relative(from, to) {
    if (from === to) return "";
    const fromOrig = resolve([from]);
    const toOrig = resolve([to]);
    if (fromOrig === toOrig) return "";
    from = toLowerCase(fromOrig);
    to = toLowerCase(toOrig);
    if (from === to) return "";
    // Lower-casing changed a length ("İ" is two code units lower-cased): the index arithmetic
    // below would cut the original in the wrong place, so compare segment by segment, as Node does.
    if (from.length !== fromOrig.length || to.length !== toOrig.length) return relativeBySegments(fromOrig, toOrig);
    let fromStart = 0;
    while (fromStart < from.length && from[fromStart] === "\\") fromStart++;
    let fromEnd = from.length;
    while (fromEnd - 1 > fromStart && from[fromEnd - 1] === "\\") fromEnd--;
    const fromLen = fromEnd - fromStart;
    let toStart = 0;
    while (toStart < to.length && to[toStart] === "\\") toStart++;
    let toEnd = to.length;
    while (toEnd - 1 > toStart && to[toEnd - 1] === "\\") toEnd--;
    const toLen = toEnd - toStart;

    const length = fromLen < toLen ? fromLen : toLen;
    let lastCommonSep = -1;
    let i = 0;
    for (; i < length; i++) {
      const c = from[fromStart + i];
      if (c !== to[toStart + i]) break;
      if (c === "\\") lastCommonSep = i;
    }
    if (i !== length) {
      if (lastCommonSep === -1) return toOrig; // nothing in common: another drive or share
    } else {
      if (toLen > length) {
        if (to[toStart + i] === "\\") return strSlice(toOrig, toStart + i + 1); // from is a parent of to
        if (i === 2) return strSlice(toOrig, toStart + i); // from is a drive root
      }
      if (fromLen > length) {
        if (from[fromStart + i] === "\\") lastCommonSep = i; // to is a parent of from
        else if (i === 2) lastCommonSep = 3; // to is a drive root
      }
      if (lastCommonSep === -1) lastCommonSep = 0;
    }
    let out = "";
    for (i = fromStart + lastCommonSep + 1; i <= fromEnd; ++i) {
      if (i === fromEnd || from[i] === "\\") out += out.length === 0 ? ".." : "\\..";
    }
    toStart += lastCommonSep;
    if (out.length > 0) return out + strSlice(toOrig, toStart, toEnd);
    if (toOrig[toStart] === "\\") ++toStart;
    return strSlice(toOrig, toStart, toEnd);
  }

  function toNamespacedPath(path) {
    if (typeof path !== "string" || path.length === 0) return path;
    const resolved = resolve([path]);
    if (resolved.length <= 2) return path;
    if (resolved[0] === "\\") {
      if (resolved[1] === "\\" && resolved[2] !== "?" && resolved[2] !== ".") return "\\\\?\\UNC\\" + strSlice(resolved, 2);
    } else if (isDriveLetter(resolved[0]) && resolved[1] === ":" && resolved[2] === "\\") {
      return "\\\\?\\" + resolved;
    }
    return resolved; // neither a drive nor a UNC path: the resolved form, as Node returns it
  }

  function parse(path) {
    const ret = { root: "", dir: "", base: "", ext: "", name: "" };
    const len = path.length;
    if (len === 0) return ret;
    if (len === 1) {
      if (isSep(path)) ret.root = ret.dir = path;
      else ret.base = ret.name = path;
      return ret;
    }
    let rootEnd = 0;
    if (isSep(path[0])) {
      rootEnd = 1;
      if (isSep(path[1])) {
        let j = 2;
        let last = j;
        while (j < len && !isSep(path[j])) j++;
        if (j < len && j !== last) {
          last = j;
          while (j < len && isSep(path[j])) j++;
          if (j < len && j !== last) {
            last = j;
            while (j < len && !isSep(path[j])) j++;
            if (j === len) rootEnd = j; // a UNC root alone
            else if (j !== last) rootEnd = j + 1; // a UNC root and more
          }
        }
      }
    } else if (isDriveLetter(path[0]) && path[1] === ":") {
      if (len <= 2) { ret.root = ret.dir = path; return ret; }
      rootEnd = 2;
      if (isSep(path[2])) {
        if (len === 3) { ret.root = ret.dir = path; return ret; }
        rootEnd = 3;
      }
    }
    if (rootEnd > 0) ret.root = strSlice(path, 0, rootEnd);

    // The last segment (trailing separators ignored) and its extension, as Node splits them.
    let startDot = -1, startPart = rootEnd, end = -1, matchedSlash = true, preDotState = 0;
    for (let i = len - 1; i >= rootEnd; --i) {
      const c = path[i];
      if (isSep(c)) {
        if (!matchedSlash) { startPart = i + 1; break; }
        continue;
      }
      if (end === -1) { matchedSlash = false; end = i + 1; }
      if (c === ".") {
        if (startDot === -1) startDot = i;
        else if (preDotState !== 1) preDotState = 1;
      } else if (startDot !== -1) {
        preDotState = -1;
      }
    }
    if (end !== -1) {
      if (startDot === -1 || preDotState === 0 ||
        (preDotState === 1 && startDot === end - 1 && startDot === startPart + 1)) {
        ret.base = ret.name = strSlice(path, startPart, end);
      } else {
        ret.name = strSlice(path, startPart, startDot);
        ret.base = strSlice(path, startPart, end);
        ret.ext = strSlice(path, startDot, end);
      }
    }
    ret.dir = startPart > 0 && startPart !== rootEnd ? strSlice(path, 0, startPart - 1) : ret.root;
    return ret;
  }

  function format(pathObject) {
    const dir = pathObject.dir || pathObject.root;
    let base = pathObject.base;
    if (!base) {
      const ext = pathObject.ext ? (pathObject.ext[0] === "." ? "" : ".") + pathObject.ext : "";
      base = (pathObject.name || "") + ext;
    }
    if (!dir) return base;
    return dir === pathObject.root ? dir + base : dir + "\\" + base;
  }

  return Q.ObjectFreeze({ __proto__: null, resolve, relative, toNamespacedPath, parse, format });
})
