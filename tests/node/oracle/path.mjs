// Oracle: node:path (POSIX) over a table of inputs, plus argument errors.
import path from "node:path";
import * as posixNs from "path/posix";
import { join, sep } from "path";

const attempt = (f) => {
  try { return { ok: f() }; } catch (e) { return { name: e.name, message: e.message, code: e.code }; }
};

const PATHS = ["", ".", "..", "/", "//", "///", "a", "a/", "a//", "/a", "/a/", "//a", "///a", "a/b", "a/b/", "/a/b", "/a//b", "/a/b/c/..",
  "./a", "../a", "a/../..", "/..", "/../a", "a/./b/../c", "a/b/../../..", "../../x/./y", "/a/b/./c/../../d/", ".a", "..a", "a.", "a..",
  "...", "a.b.c", "/x/.hidden", "/x/.hidden.txt", "dir/file.tar.gz", "dir.d/file", "dir.d/", "/a/b.js/", "C:\\x\\y", "a b/c d.e",
  "ünï/cödé.ts", "/foo/bar/baz/asdf/quux.html", "foo.", "/.", "./", "../"];

export async function agent() {
  const out = {};
  out.shape = [path.sep, path.delimiter, sep, path.posix === path, posixNs.default === path, typeof path.win32, path.win32.sep,
    path.win32.delimiter, typeof path.toNamespacedPath];
  out.table = PATHS.map((p) => ({
    p, normalize: path.normalize(p), dirname: path.dirname(p), basename: path.basename(p), extname: path.extname(p),
    isAbsolute: path.isAbsolute(p), parse: path.parse(p), resolve: path.resolve(p), resolveFrom: path.resolve("/base/dir", p),
    formatParsed: path.format(path.parse(p)), ns: path.toNamespacedPath(p),
  }));
  out.basenameExt = [["/a/b.js", ".js"], ["a.js", "a.js"], ["/a/b.js/", ".js"], ["aaa", "a"], ["aaa", "aaa"], ["/a/b.js", "js"],
    ["/a/b.js", ".ts"], ["/a/b.js", ""], ["b.js.js", ".js"], ["/a/", "a"], ["x", "xx"], [".js", ".js"], ["a/.js", "js"],
    ["/a/b/", "b"], ["a/", "a"], ["/ba/", "a"], ["/a/b.js//", "b.js"], ["x/y.js/", "y.js"], ["/x/.env", ".env"], [".env", ".env"], ["x/aaa", "aaa"], ["/x/..env", ".env"]]
    .map(([p, e]) => path.basename(p, e));
  out.join = [[], [""], ["", ""], ["a", "b"], ["/a", "b", "../c"], ["a", "", "b"], ["a/", "/b"], ["/", "/"], ["..", "a"], [".", "."],
    ["a", "../.."], ["/a", "../../.."], ["a/", "b/"], ["", "/a"]].map((args) => join(...args));
  out.resolve = [[], [""], ["a", "b"], ["/a", "b", "/c", "d"], ["a", "/b", ".."], ["/", ".."], ["x/y", "../z"], ["", "", "q"]]
    .map((args) => path.resolve(...args));
  out.relative = [["/a/b", "/a/c"], ["/a/b/c", "/a"], ["/a", "/a/b/c"], ["/a", "/a"], ["a", "b"], ["/", "/x/y"], ["/x/y", "/"],
    ["/a/bb", "/a/b"], ["", ""], ["a/b", "a/b/c/../d"], ["/foo/bar", "/foo/barbaz"], ["/data/orandea/test/aaa", "/data/orandea/impl/bbb"]]
    .map(([a, b]) => path.relative(a, b));
  out.format = [{ root: "/", dir: "/home/user", base: "file.txt" }, { root: "/", base: "file.txt", ext: "ignored" },
    { root: "/", name: "file", ext: ".txt" }, { name: "file", ext: "txt" }, { dir: "d", name: "n" }, {}, { root: "/x/" },
    { dir: "/", base: "b" }].map((o) => path.format(o));
  out.errors = [attempt(() => path.join("a", 1)), attempt(() => path.resolve("a", null)), attempt(() => path.normalize()),
    attempt(() => path.basename("a", 1)), attempt(() => path.relative(1, "a")), attempt(() => path.format(null)),
    attempt(() => path.format("x")), attempt(() => path.parse({})), attempt(() => path.dirname(undefined)), attempt(() => path.extname(5)),
    attempt(() => path.isAbsolute([]))];
  out.receivedIn = [Object.create(null), "it's a 'quoted' string that is long", -0, 5n, Symbol("s"), [1], () => {}, function named() {}]
    .map((v) => attempt(() => path.join(v)).message);
  return out;
}
