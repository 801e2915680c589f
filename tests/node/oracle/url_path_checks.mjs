// Oracle: what running Node's own url and path tests by hand found different (our inputs, not
// Node's): fileURLToPath / pathToFileURL with {windows} (drive letters, UNC, encoded separators,
// characters Windows paths escape), ERR_INVALID_ARG_TYPE texts with their "Received" tail,
// url.format(URL, options) option checking and truthiness, the legacy parser's errors for bad
// hosts and auth escapes, URL.revokeObjectURL, path.win32.normalize keeping a relative path off a
// drive, path.win32.relative with a character whose lower case is longer, and node:path/win32.
import url from "node:url";
import path from "node:path";
import win32 from "node:path/win32";

const attempt = (f) => { try { return f(); } catch (e) { return { name: e.name, code: e.code, message: e.message }; } };

export async function agent() {
  const out = {};
  const winPaths = ["C:\\a\\b.txt", "D:\\dir\\", "c:\\sp ace\\x#y?z%w", "C:\\caret^[br]|pipe~t", "C:\\\u00e9\u20ac",
    "\\\\srv\\share\\f.doc", "\\\\?\\UNC\\srv\\share\\g", "C:\\a\\..\\b"];
  out.toURLWin = winPaths.map((p) => attempt(() => url.pathToFileURL(p, { windows: true }).href));
  out.toURLWinBad = ["\\\\\\x", "\\\\host"].map((p) => attempt(() => url.pathToFileURL(p, { windows: true })));
  out.toURLPosix = ["/a b/c", "/x\\y", "/q?#%", "rel/../z/", ""].map((p) => attempt(() => url.pathToFileURL(p, { windows: false }).href));
  out.toURLNull = attempt(() => url.pathToFileURL("/n", null).href);
  out.toURLBad = [undefined, 42, 7n, true, null, "x".repeat(0)].map((v) => attempt(() => url.pathToFileURL(v).href));
  const fileURLs = ["file:///C:/a/b.txt", "file:///c:/x%20y", "file://srv/share/f", "file:///C:/a%5Cb", "file:///C:/a%2Fb",
    "file:///no-drive", "file:///C:"];
  out.toPathWin = fileURLs.map((u) => attempt(() => url.fileURLToPath(u, { windows: true })));
  out.toPathPosix = ["file:///a/b%20c", "file:///x%2fy", "file://h/a"].map((u) => attempt(() => url.fileURLToPath(u, { windows: false })));
  out.toPathBad = [null, 1, true, "https://a/b"].map((v) => attempt(() => url.fileURLToPath(v)));
  const u = new URL("http://us:pw@xn--bcher-kva.example/p?q=1#h");
  out.format = [undefined, null, {}, { auth: 0 }, { auth: "" }, { auth: 1 }, { fragment: null }, { search: false },
    { unicode: 1 }, { unicode: "" }].map((o) => attempt(() => url.format(u, o)));
  out.formatBad = [true, 1, "x"].map((o) => attempt(() => url.format(u, o)));
  out.legacyBad = [5, undefined, null, true].map((v) => attempt(() => url.parse(v)));
  out.legacyHost = ["http://ok.example/", "http://a\u2100b.example/", "http://[::1\u0000x]/", "http://%E0%A4%A@h/"]
    .map((s) => { const r = attempt(() => url.parse(s).host); return typeof r === "object" ? [r.name, r.code] : r; });
  out.revoke = [attempt(() => URL.revokeObjectURL()), attempt(() => URL.revokeObjectURL("blob:nothing"))];
  out.normalize = ["test/../C:/Windows", "x/../C:y", "./a/../C:", "a/b:/c", "/a/../C:/b", "C:a/../D:/x", "a:b"]
    .map((p) => win32.normalize(p));
  out.relative = [["c:\\a\\\u0130", "c:\\a\\\u0130\\t.txt"], ["c:\\\u0130\\a", "c:\\\u0130\\b\\c"], ["c:\\\u0130\\a\\b", "c:\\\u0130"],
    ["c:\\\u0130", "d:\\x"]].map(([a, b]) => win32.relative(a, b));
  out.win32Module = [win32 === path.win32, win32.sep];
  return out;
}
