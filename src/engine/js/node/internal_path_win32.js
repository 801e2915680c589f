/* node/internal_path_win32.js — the pure string half of path.win32: sep, delimiter, isAbsolute,
 * normalize, join, dirname, basename, extname, with Node's rules for both separators, drive
 * letters ("C:", "C:\\") and UNC roots ("\\\\server\\share\\"). resolve, relative,
 * toNamespacedPath, parse and format are in internal_path_win32_resolve.js.
 *
 * Pure computation over strings the caller already validated. */
(function (require, natives, name) {
  "use strict";
  // Only builtins captured before guest code ran (natives.primordials), lists without a prototype,
  // no iterator: see docs/primordials.md.
  const Q = natives.primordials;
  const ReflectApply = Q.ReflectApply, list = Q.list;
  const StringPrototypeSlice = Q.StringPrototypeSlice, StringPrototypeLastIndexOf = Q.StringPrototypeLastIndexOf;
  const StringPrototypeEndsWith = Q.StringPrototypeEndsWith, StringPrototypeIndexOf = Q.StringPrototypeIndexOf;
  const strSlice = Q.uncurryThis(StringPrototypeSlice);
  const lastIndexOf = (s, t) => ReflectApply(StringPrototypeLastIndexOf, s, [t]);
  const endsWith = (s, t) => ReflectApply(StringPrototypeEndsWith, s, [t]);

  const isSep = (c) => c === "\\" || c === "/";
  const isDriveLetter = (c) => typeof c === "string" && c.length === 1 && ((c >= "A" && c <= "Z") || (c >= "a" && c <= "z"));
  const hasDrive = (p) => p.length >= 2 && isDriveLetter(p[0]) && p[1] === ":";

  // Resolves "." and ".." in a root-less path, joining with "\\".
  function normalizeTail(path, allowAboveRoot) {
    const out = list();
    let start = 0;
    for (let i = 0; i <= path.length; i++) {
      if (i < path.length && !isSep(path[i])) continue;
      const part = strSlice(path, start, i);
      start = i + 1;
      if (part === "" || part === ".") continue;
      if (part === "..") {
        if (out.length && out[out.length - 1] !== "..") out.length--;
        else if (allowAboveRoot) out[out.length] = "..";
        continue;
      }
      out[out.length] = part;
    }
    let joined = "";
    for (let i = 0; i < out.length; i++) joined += (i ? "\\" : "") + out[i];
    return joined;
  }

  // Where a UNC root "\\\\server\\share" ends: { end, complete } or null when `path` has none.
  function uncRoot(path) {
    const len = path.length;
    let j = 2;
    while (j < len && !isSep(path[j])) j++;
    if (j >= len || j === 2) return null;
    const server = strSlice(path, 2, j);
    while (j < len && isSep(path[j])) j++;
    if (j >= len) return null;
    const last = j;
    while (j < len && !isSep(path[j])) j++;
    return { server, share: strSlice(path, last, j), end: j, whole: j === len };
  }

  function isAbsolute(path) {
    if (path.length === 0) return false;
    return isSep(path[0]) || (hasDrive(path) && path.length > 2 && isSep(path[2]));
  }

  function normalize(path) {
    const len = path.length;
    if (len === 0) return ".";
    if (len === 1) return isSep(path) ? "\\" : path;
    let rootEnd = 0, device, absolute = false;
    if (isSep(path[0])) {
      absolute = true;
      rootEnd = 1;
      if (isSep(path[1])) {
        const unc = uncRoot(path);
        if (unc !== null && (unc.server === "." || unc.server === "?")) {
          device = "\\\\" + unc.server; // a device path ("\\\\.\\pipe"): the rest is its tail
          rootEnd = 4;
        } else if (unc !== null) {
          if (unc.whole) return "\\\\" + unc.server + "\\" + unc.share + "\\";
          device = "\\\\" + unc.server + "\\" + unc.share;
          rootEnd = unc.end;
        }
      }
    } else if (hasDrive(path)) {
      device = strSlice(path, 0, 2);
      rootEnd = 2;
      if (len > 2 && isSep(path[2])) { absolute = true; rootEnd = 3; }
    }
    let tail = rootEnd < len ? normalizeTail(strSlice(path, rootEnd), !absolute) : "";
    if (tail.length === 0 && !absolute) tail = ".";
    if (tail.length > 0 && isSep(path[len - 1])) tail += "\\";
    // A relative path with a ":" must not normalize into something Windows reads as a drive
    // (CVE-2024-36139, as Node 20 does): "test/../C:/x" is ".\\C:\\x".
    if (!absolute && device === undefined && ReflectApply(StringPrototypeIndexOf, path, [":", 0]) >= 0) {
      if (tail.length >= 2 && isDriveLetter(tail[0]) && tail[1] === ":") return ".\\" + tail;
      for (let i = ReflectApply(StringPrototypeIndexOf, path, [":", 0]); i !== -1;
        i = ReflectApply(StringPrototypeIndexOf, path, [":", i + 1])) {
        if (i === len - 1 || isSep(path[i + 1])) return ".\\" + tail;
      }
    }
    if (device === undefined) return absolute ? "\\" + tail : tail;
    return absolute ? device + "\\" + tail : device + tail;
  }

  function join(args) {
    let joined, first;
    for (let i = 0; i < args.length; i++) {
      const arg = args[i];
      if (arg.length === 0) continue;
      if (joined === undefined) joined = first = arg;
      else joined += "\\" + arg;
    }
    if (joined === undefined) return ".";
    // Leading separators of the first part collapse to one unless it names a UNC root.
    let replace = true, slashes = 0;
    if (isSep(first[0])) {
      slashes++;
      if (first.length > 1 && isSep(first[1])) {
        slashes++;
        if (first.length > 2) {
          if (isSep(first[2])) slashes++;
          else replace = false;
        }
      }
    }
    if (replace) {
      while (slashes < joined.length && isSep(joined[slashes])) slashes++;
      if (slashes >= 2) joined = "\\" + strSlice(joined, slashes);
    }
    return normalize(joined);
  }

  function dirname(path) {
    const len = path.length;
    if (len === 0) return ".";
    if (len === 1) return isSep(path) ? path : ".";
    let rootEnd = -1, offset = 0;
    if (isSep(path[0])) {
      rootEnd = offset = 1;
      if (isSep(path[1])) {
        const unc = uncRoot(path);
        if (unc !== null) {
          if (unc.whole) return path;
          rootEnd = offset = unc.end + 1;
        }
      }
    } else if (hasDrive(path)) {
      rootEnd = offset = len > 2 && isSep(path[2]) ? 3 : 2;
    }
    let end = -1, matchedSlash = true;
    for (let i = len - 1; i >= offset; i--) {
      if (isSep(path[i])) {
        if (!matchedSlash) { end = i; break; }
      } else {
        matchedSlash = false;
      }
    }
    if (end === -1) {
      if (rootEnd === -1) return ".";
      end = rootEnd;
    }
    return strSlice(path, 0, end);
  }

  // The last segment of `path` (drive prefix and trailing separators ignored).
  function lastSegment(path) {
    let p = hasDrive(path) ? strSlice(path, 2) : path;
    let end = p.length;
    while (end > 0 && isSep(p[end - 1])) end--;
    let start = end;
    while (start > 0 && !isSep(p[start - 1])) start--;
    return { base: strSlice(p, start, end), trailing: end < p.length };
  }

  function basename(path, suffix) {
    const { base } = lastSegment(path);
    if (suffix !== undefined && suffix.length > 0 && endsWith(base, suffix)) {
      if (suffix === path) return "";
      if (base === suffix) return base;
      return strSlice(base, 0, base.length - suffix.length);
    }
    return base;
  }

  function extname(path) {
    const { base } = lastSegment(path);
    if (base === "..") return "";
    const dot = lastIndexOf(base, ".");
    return dot <= 0 ? "" : strSlice(base, dot);
  }

  return Q.ObjectFreeze({ __proto__: null, isAbsolute, normalize, join, dirname, basename, extname, normalizeTail });
})
