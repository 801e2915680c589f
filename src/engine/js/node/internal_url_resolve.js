/* node/internal_url_resolve.js — the legacy url.resolve/resolveObject of node:url: a relative
 * reference resolved over legacy Url objects (not the WHATWG parser), so what Node keeps as typed
 * (non-ASCII in paths, queries and fragments) stays raw, and a base without "//" (mailto:,
 * data:, urn:...) resolves as Node does, its first path part standing for a host.
 *
 * make(Url, parse, SLASHED, HOSTLESS) gets node/url.js's legacy parser; pure computation, no
 * capability. */
(function (require, natives, name) {
  "use strict";

  function make(Url, parse, SLASHED, HOSTLESS) {
    const copyInto = (to, from, skip) => {
      for (const k of Object.keys(from)) if (k !== skip) to[k] = from[k];
    };
    const setPath = (r) => {
      if (r.pathname !== null || r.search !== null) r.path = (r.pathname || "") + (r.search || "");
    };

    // An "@" left in the host of a base without "//" is its auth ("mailto:a@b" + "c@d").
    function hostToAuth(result) {
      if (result.host && result.host.indexOf("@") > 0) {
        const parts = result.host.split("@");
        result.auth = parts.shift();
        result.host = result.hostname = parts.shift();
      }
    }

    function resolveObject(base, relative) {
      if (typeof relative === "string") relative = parse(relative, false, true);
      const result = new Url();
      copyInto(result, base);
      result.hash = relative.hash; // always the relative's, even when it has none

      if (relative.href === "") {
        result.href = result.format();
        return result;
      }
      // "//host/path": everything but the scheme from the relative
      if (relative.slashes && !relative.protocol) {
        copyInto(result, relative, "protocol");
        if (SLASHED.has(result.protocol) && result.hostname && !result.pathname) result.path = result.pathname = "/";
        result.href = result.format();
        return result;
      }
      if (relative.protocol && relative.protocol !== result.protocol) {
        if (!SLASHED.has(relative.protocol)) {
          copyInto(result, relative);
          result.href = result.format();
          return result;
        }
        result.protocol = relative.protocol;
        if (!relative.host && !/^file:?$/.test(relative.protocol) && !HOSTLESS.has(relative.protocol)) {
          const relPath = (relative.pathname || "").split("/");
          while (relPath.length && !(relative.host = relPath.shift()));
          if (!relative.host) relative.host = "";
          if (!relative.hostname) relative.hostname = "";
          if (relPath[0] !== "") relPath.unshift("");
          if (relPath.length < 2) relPath.unshift("");
          result.pathname = relPath.join("/");
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
        result.href = result.format();
        return result;
      }

      const isSourceAbs = result.pathname && result.pathname.charAt(0) === "/";
      const isRelAbs = relative.host || (relative.pathname && relative.pathname.charAt(0) === "/");
      let mustEndAbs = isRelAbs || isSourceAbs || (result.host && relative.pathname);
      const removeAllDots = mustEndAbs;
      let srcPath = (result.pathname && result.pathname.split("/")) || [];
      const relPath = (relative.pathname && relative.pathname.split("/")) || [];
      const noLeadingSlashes = result.protocol && !SLASHED.has(result.protocol);

      // Without "//", "../" may climb into the host: the host becomes the first path part.
      if (noLeadingSlashes) {
        result.hostname = "";
        result.port = null;
        if (result.host) {
          if (srcPath[0] === "") srcPath[0] = result.host;
          else srcPath.unshift(result.host);
        }
        result.host = "";
        if (relative.protocol) {
          relative.hostname = null;
          relative.port = null;
          if (relative.host) {
            if (relPath[0] === "") relPath[0] = relative.host;
            else relPath.unshift(relative.host);
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
        srcPath.pop();
        srcPath = srcPath.concat(relPath);
        result.search = relative.search;
        result.query = relative.query;
      } else if (relative.search !== null && relative.search !== undefined) {
        if (noLeadingSlashes) {
          result.hostname = result.host = srcPath.shift();
          hostToAuth(result);
        }
        result.search = relative.search;
        result.query = relative.query;
        setPath(result);
        result.href = result.format();
        return result;
      }

      if (!srcPath.length) {
        result.pathname = null;
        result.path = result.search ? "/" + result.search : null;
        result.href = result.format();
        return result;
      }

      // A path ending in "." or ".." gets a trailing slash; one ending otherwise does not.
      let last = srcPath.slice(-1)[0];
      const hasTrailingSlash = ((result.host || relative.host || srcPath.length > 1) && (last === "." || last === "..")) ||
        last === "";
      let up = 0;
      for (let i = srcPath.length - 1; i >= 0; i--) {
        last = srcPath[i];
        if (last === ".") {
          srcPath.splice(i, 1);
        } else if (last === "..") {
          srcPath.splice(i, 1);
          up++;
        } else if (up) {
          srcPath.splice(i, 1);
          up--;
        }
      }
      if (!mustEndAbs && !removeAllDots) while (up--) srcPath.unshift("..");
      if (mustEndAbs && srcPath[0] !== "" && (!srcPath[0] || srcPath[0].charAt(0) !== "/")) srcPath.unshift("");
      if (hasTrailingSlash && srcPath.join("/").slice(-1) !== "/") srcPath.push("");
      const isAbsolute = srcPath[0] === "" || (srcPath[0] && srcPath[0].charAt(0) === "/");

      if (noLeadingSlashes) {
        result.hostname = result.host = isAbsolute ? "" : srcPath.length ? srcPath.shift() : "";
        hostToAuth(result);
      }
      mustEndAbs = mustEndAbs || (result.host && srcPath.length);
      if (mustEndAbs && !isAbsolute) srcPath.unshift("");
      if (srcPath.length > 0) {
        result.pathname = srcPath.join("/");
      } else {
        result.pathname = null;
        result.path = null;
      }
      setPath(result);
      result.auth = relative.auth || result.auth;
      result.slashes = result.slashes || relative.slashes;
      result.href = result.format();
      return result;
    }

    return {
      resolveObject,
      resolve: (from, to) => resolveObject(parse(from, false, true), parse(to, false, true)).format(),
    };
  }

  return Object.freeze({ make });
})
