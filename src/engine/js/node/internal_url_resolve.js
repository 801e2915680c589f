/* node/internal_url_resolve.js — the legacy url.resolve/resolveObject of node:url: a relative
 * reference resolved over legacy Url objects (not the WHATWG parser), so what Node keeps as typed
 * (non-ASCII in paths, queries and fragments) stays raw, and a base without "//" (mailto:,
 * data:, urn:...) resolves as Node does, its first path part standing for a host.
 *
 * make(Url, parse, SLASHED, HOSTLESS) gets node/url.js's legacy parser; pure computation, no
 * capability. */
(function (require, natives, name) {
  "use strict";
  // Only builtins captured before guest code ran (natives.primordials) and lists without a
  // prototype; the Url's own format is called directly, never looked up on Url.prototype
  // (docs/primordials.md).
  const Q = natives.primordials;
  const ReflectApply = Q.ReflectApply, list = Q.list, defineValue = Q.defineValue, ObjectKeys = Q.ObjectKeys;
  const StringPrototypeSlice = Q.StringPrototypeSlice, StringPrototypeIndexOf = Q.StringPrototypeIndexOf;
  const StringPrototypeCharCodeAt = Q.StringPrototypeCharCodeAt;
  const strSlice = Q.uncurryThis(StringPrototypeSlice);
  const strIndexOf = (s, t) => ReflectApply(StringPrototypeIndexOf, s, [t, 0]);
  const startsWithSlash = (s) => s.length > 0 && ReflectApply(StringPrototypeCharCodeAt, s, [0]) === 0x2f;

  // list helpers (the legacy algorithm's shift/unshift/splice/concat/join, on lists)
  function split(s, sep) {
    const out = list();
    let start = 0;
    for (;;) {
      const i = ReflectApply(StringPrototypeIndexOf, s, [sep, start]);
      if (i < 0) break;
      out[out.length] = strSlice(s, start, i);
      start = i + 1;
    }
    out[out.length] = strSlice(s, start);
    return out;
  }
  function shift(a) {
    if (a.length === 0) return undefined;
    const v = a[0];
    for (let i = 1; i < a.length; i++) a[i - 1] = a[i];
    a.length--;
    return v;
  }
  function unshift(a, v) {
    for (let i = a.length; i > 0; i--) a[i] = a[i - 1];
    a[0] = v;
  }
  function removeAt(a, at) {
    for (let i = at + 1; i < a.length; i++) a[i - 1] = a[i];
    a.length--;
  }
  function concat(a, b) {
    const out = list();
    for (let i = 0; i < a.length; i++) out[out.length] = a[i];
    for (let i = 0; i < b.length; i++) out[out.length] = b[i];
    return out;
  }
  function join(a, sep) {
    let out = "";
    for (let i = 0; i < a.length; i++) out += (i ? sep : "") + (a[i] === undefined || a[i] === null ? "" : a[i]);
    return out;
  }

  function make(Url, parse, isSlashed, isHostless, format) {
    const copyInto = (to, from, skip) => {
      const keys = ObjectKeys(from);
      for (let i = 0; i < keys.length; i++) if (keys[i] !== skip) defineValue(to, keys[i], from[keys[i]]);
    };
    const setPath = (r) => {
      if (r.pathname !== null || r.search !== null) r.path = (r.pathname || "") + (r.search || "");
    };

    // An "@" left in the host of a base without "//" is its auth ("mailto:a@b" + "c@d").
    function hostToAuth(result) {
      if (result.host && strIndexOf(result.host, "@") > 0) {
        const parts = split(result.host, "@");
        result.auth = parts[0];
        result.host = result.hostname = parts[1];
      }
    }

    function resolveObject(base, relative) {
      if (typeof relative === "string") relative = parse(relative, false, true);
      const result = new Url();
      copyInto(result, base);
      result.hash = relative.hash; // always the relative's, even when it has none

      if (relative.href === "") {
        result.href = format(result);
        return result;
      }
      // "//host/path": everything but the scheme from the relative
      if (relative.slashes && !relative.protocol) {
        copyInto(result, relative, "protocol");
        if (isSlashed(result.protocol) && result.hostname && !result.pathname) result.path = result.pathname = "/";
        result.href = format(result);
        return result;
      }
      if (relative.protocol && relative.protocol !== result.protocol) {
        if (!isSlashed(relative.protocol)) {
          copyInto(result, relative);
          result.href = format(result);
          return result;
        }
        result.protocol = relative.protocol;
        if (!relative.host && relative.protocol !== "file" && relative.protocol !== "file:" &&
            !isHostless(relative.protocol)) {
          const relPath = split(relative.pathname || "", "/");
          while (relPath.length && !(relative.host = shift(relPath)));
          if (!relative.host) relative.host = "";
          if (!relative.hostname) relative.hostname = "";
          if (relPath[0] !== "") unshift(relPath, "");
          if (relPath.length < 2) unshift(relPath, "");
          result.pathname = join(relPath, "/");
        } else {
          result.pathname = relative.pathname;
        }
        result.search = relative.search;
        result.query = relative.query;
        result.host = relative.host || "";
        result.auth = relative.auth;
        result.hostname = relative.hostname || relative.host;
        result.port = relative.port;
        if (result.pathname || result.search) result.path = (result.pathname || "") + (result.search || "");
        result.slashes = result.slashes || relative.slashes;
        result.href = format(result);
        return result;
      }

      const isSourceAbs = result.pathname && startsWithSlash(result.pathname);
      const isRelAbs = relative.host || (relative.pathname && startsWithSlash(relative.pathname));
      let mustEndAbs = isRelAbs || isSourceAbs || (result.host && relative.pathname);
      const removeAllDots = mustEndAbs;
      let srcPath = (result.pathname && split(result.pathname, "/")) || list();
      const relPath = (relative.pathname && split(relative.pathname, "/")) || list();
      const noLeadingSlashes = result.protocol && !isSlashed(result.protocol);

      // Without "//", "../" may climb into the host: the host becomes the first path part.
      if (noLeadingSlashes) {
        result.hostname = "";
        result.port = null;
        if (result.host) {
          if (srcPath[0] === "") srcPath[0] = result.host;
          else unshift(srcPath, result.host);
        }
        result.host = "";
        if (relative.protocol) {
          relative.hostname = null;
          relative.port = null;
          if (relative.host) {
            if (relPath[0] === "") relPath[0] = relative.host;
            else unshift(relPath, relative.host);
          }
          relative.host = null;
        }
        mustEndAbs = mustEndAbs && (relPath[0] === "" || srcPath[0] === "");
      }

      if (isRelAbs) {
        if (relative.host || relative.host === "") {
          if (result.host !== relative.host) result.auth = null;
          result.host = relative.host;
          result.port = relative.port;
        }
        if (relative.hostname || relative.hostname === "") {
          if (result.hostname !== relative.hostname) result.auth = null;
          result.hostname = relative.hostname;
        }
        result.search = relative.search;
        result.query = relative.query;
        srcPath = relPath;
      } else if (relPath.length) {
        if (srcPath.length > 0) srcPath.length--;
        srcPath = concat(srcPath, relPath);
        result.search = relative.search;
        result.query = relative.query;
      } else if (relative.search !== null && relative.search !== undefined) {
        if (noLeadingSlashes) {
          result.hostname = result.host = shift(srcPath);
          hostToAuth(result);
        }
        result.search = relative.search;
        result.query = relative.query;
        setPath(result);
        result.href = format(result);
        return result;
      }

      if (!srcPath.length) {
        result.pathname = null;
        result.path = result.search ? "/" + result.search : null;
        result.href = format(result);
        return result;
      }

      // A path ending in "." or ".." gets a trailing slash; one ending otherwise does not.
      let last = srcPath[srcPath.length - 1];
      const hasTrailingSlash = ((result.host || relative.host || srcPath.length > 1) && (last === "." || last === "..")) ||
        last === "";
      let up = 0;
      for (let i = srcPath.length - 1; i >= 0; i--) {
        last = srcPath[i];
        if (last === ".") {
          removeAt(srcPath, i);
        } else if (last === "..") {
          removeAt(srcPath, i);
          up++;
        } else if (up) {
          removeAt(srcPath, i);
          up--;
        }
      }
      if (!mustEndAbs && !removeAllDots) while (up--) unshift(srcPath, "..");
      if (mustEndAbs && srcPath[0] !== "" && (!srcPath[0] || !startsWithSlash(srcPath[0]))) unshift(srcPath, "");
      if (hasTrailingSlash) {
        const joined = join(srcPath, "/");
        if (joined.length === 0 || strSlice(joined, -1) !== "/") srcPath[srcPath.length] = "";
      }
      const isAbsolute = srcPath[0] === "" || (srcPath[0] && startsWithSlash(srcPath[0]));

      if (noLeadingSlashes) {
        result.hostname = result.host = isAbsolute ? "" : srcPath.length ? shift(srcPath) : "";
        hostToAuth(result);
      }
      mustEndAbs = mustEndAbs || (result.host && srcPath.length);
      if (mustEndAbs && !isAbsolute) unshift(srcPath, "");
      if (srcPath.length > 0) {
        result.pathname = join(srcPath, "/");
      } else {
        result.pathname = null;
        result.path = null;
      }
      setPath(result);
      result.auth = relative.auth || result.auth;
      result.slashes = result.slashes || relative.slashes;
      result.href = format(result);
      return result;
    }

    return {
      __proto__: null,
      resolveObject,
      resolve: (from, to) => format(resolveObject(parse(from, false, true), parse(to, false, true))),
    };
  }

  return Q.ObjectFreeze({ __proto__: null, make });
})
