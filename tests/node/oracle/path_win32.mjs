// Oracle: path.win32's string functions (sep, delimiter, isAbsolute, normalize, join, dirname,
// basename, extname) over drive letters, UNC roots and both separators. resolve, relative,
// toNamespacedPath, parse and format are in path_win32_resolve.mjs.
import path from "node:path";

const P = ["", ".", "..", "\\", "/", "\\\\", "C:", "C:\\", "C:/", "c:foo", "C:\\foo\\bar", "C:\\foo\\bar\\", "C:\\foo\\..\\..\\x",
  "c:..\\x", "\\\\server", "\\\\server\\", "\\\\server\\share", "\\\\server\\share\\", "\\\\server\\share\\dir\\file.txt",
  "//server/share/a/../b", "\\\\?\\C:\\x", "a\\b/c", "a\\.\\b\\..\\c\\", "..\\..\\a", "\\foo\\..\\..", "file.tar.gz", ".env",
  "dir\\.hidden", "C:\\a.b\\c", "C:\\x\\y.js\\", "C:file.js", "a//b\\\\c", "\\\\\\x\\y", "ü\\ö.ts"];

export async function agent() {
  const w = path.win32;
  const out = {};
  out.shape = [w.sep, w.delimiter, w.posix === path, path.win32 === w];
  out.table = P.map((p) => ({ p, normalize: w.normalize(p), dirname: w.dirname(p), basename: w.basename(p), extname: w.extname(p),
    isAbsolute: w.isAbsolute(p) }));
  out.basenameExt = [["C:\\a\\b.js", ".js"], ["b.js", "b.js"], ["C:\\x\\.env", ".env"], ["C:.env", ".env"], ["\\a\\b.js\\", ".js"],
    ["a/b.JS", ".js"]].map(([p, e]) => w.basename(p, e));
  out.join = [[], [""], ["a", "b"], ["C:\\", "x", "..\\y"], ["\\\\server", "share"], ["//server", "share", "x"], ["/", "//x"],
    ["\\\\", "x"], ["a/", "/b"], ["C:", "x"], ["", "\\\\a"], ["..", "a", "..", ".."], ["\\\\\\a", "b"]].map((a) => w.join(...a));
  const attempt = (f) => { try { return f(); } catch (e) { return [e.name, e.code]; } };
  out.errors = [attempt(() => w.join("a", 1)), attempt(() => w.basename(5)), attempt(() => w.normalize(null))];
  return out;
}
