/* node/internal_path_win32.js — the pure string half of path.win32: sep, delimiter, isAbsolute,
 * normalize, join, dirname, basename, extname, with Node's rules for both separators, drive
 * letters ("C:", "C:\\") and UNC roots ("\\\\server\\share\\"). resolve, relative,
 * toNamespacedPath, parse and format are in internal_path_win32_resolve.js.
 *
 * Pure computation over strings the caller already validated. */
(function (require, natives, name) {
  "use strict";

  const isSep = (c) => c === "\\" || c === "/";
  const isDriveLetter = (c) => /^[A-Za-z]$/.test(c);
  const hasDrive = (p) => p.length >= 2 && isDriveLetter(p[0]) && p[1] === ":";

  // Resolves "." and ".." in a root-less path, joining with "\\".
  function normalizeTail(path, allowAboveRoot) {
    const out = [];
    const parts = path.split(/[\\/]/);
    for (const part of parts) {
      if (part === "" || part === ".") continue;
      if (part === "..") {
        if (out.length && out[out.length - 1] !== "..") out.pop();
        else if (allowAboveRoot) out.push("..");
        continue;
      }
      out.push(part);
    }
    return out.join("\\");
  }

  // Where a UNC root "\\\\server\\share" ends: { end, complete } or null when `path` has none.
  function uncRoot(path) {
    const len = path.length;
    let j = 2;
    while (j < len && !isSep(path[j])) j++;
    if (j >= len || j === 2) return null;
    const server = path.slice(2, j);
    while (j < len && isSep(path[j])) j++;
    if (j >= len) return null;
    const last = j;
    while (j < len && !isSep(path[j])) j++;
    return { server, share: path.slice(last, j), end: j, whole: j === len };
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
      device = path.slice(0, 2);
      rootEnd = 2;
      if (len > 2 && isSep(path[2])) { absolute = true; rootEnd = 3; }
    }
    let tail = rootEnd < len ? normalizeTail(path.slice(rootEnd), !absolute) : "";
    if (tail.length === 0 && !absolute) tail = ".";
    if (tail.length > 0 && isSep(path[len - 1])) tail += "\\";
    if (device === undefined) return absolute ? "\\" + tail : tail;
    return absolute ? device + "\\" + tail : device + tail;
  }

  function join(args) {
    let joined, first;
    for (const arg of args) {
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
      if (slashes >= 2) joined = "\\" + joined.slice(slashes);
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
    return path.slice(0, end);
  }

  // The last segment of `path` (drive prefix and trailing separators ignored).
  function lastSegment(path) {
    let p = hasDrive(path) ? path.slice(2) : path;
    let end = p.length;
    while (end > 0 && isSep(p[end - 1])) end--;
    let start = end;
    while (start > 0 && !isSep(p[start - 1])) start--;
    return { base: p.slice(start, end), trailing: end < p.length };
  }

  function basename(path, suffix) {
    const { base } = lastSegment(path);
    if (suffix !== undefined && suffix.length > 0 && base.endsWith(suffix)) {
      if (suffix === path) return "";
      if (base === suffix) return base;
      return base.slice(0, base.length - suffix.length);
    }
    return base;
  }

  function extname(path) {
    const { base } = lastSegment(path);
    if (base === "..") return "";
    const dot = base.lastIndexOf(".");
    return dot <= 0 ? "" : base.slice(dot);
  }

  return Object.freeze({ isAbsolute, normalize, join, dirname, basename, extname, normalizeTail });
})
