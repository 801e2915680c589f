// Oracle: path.win32's resolve, relative, toNamespacedPath, parse and format over drive letters,
// drive-relative paths ("C:foo"), UNC roots, both separators and the run's working directory "/"
// (Node here runs in "/" too, so a path without a drive resolves under "\").
import path from "node:path";

const P = ["", ".", "..", "\\", "/", "\\\\", "//", "C:", "c:", "C:\\", "C:/", "c:foo", "C:foo\\..\\..\\bar", "C:\\foo\\bar",
  "C:\\foo\\bar\\", "C:\\foo\\..\\..\\x", "c:..\\x", "\\\\server", "\\\\server\\", "\\\\server\\share", "\\\\server\\share\\",
  "\\\\server\\share\\dir\\file.txt", "//server/share/a/../b", "\\\\?\\C:\\x", "\\\\.\\pipe\\p", "a\\b/c", "a\\.\\b\\..\\c\\",
  "..\\..\\a", "\\foo\\..\\..", "file.tar.gz", ".env", "..env", "dir\\.hidden", "C:\\a.b\\c", "C:\\x\\y.js\\", "C:file.js",
  "a//b\\\\c", "\\\\\\x\\y", "ü\\ö.ts", "C:\\..", "C:\\...", "C:\\a\\..", "x.", "\\x\\.y.", "C:\\a\\b.c.d", "D:\\\\\\x",
  "\\\\server\\share\\\\x\\\\", "\\\\.\\pipe", "\\\\.\\x\\", "\\\\?\\x", "//./c:/x/../y", "\\\\?\\UNC\\s\\h", "\\\\.\\"];

const RESOLVE = [[], [""], ["."], ["a"], ["a", "b"], ["C:"], ["c:foo"], ["C:\\x", "d:y"], ["C:\\x", "c:y"], ["C:\\x", "C:y", "z"],
  ["c:/blah\\blah", "d:/games", "c:../a"], ["c:/ignore", "d:\\a/b\\c/d", "\\e.exe"], ["c:/ignore", "c:/some/file"],
  ["d:/ignore", "d:some/dir//"], ["//server/share", "..", "relative\\"], ["c:/", "//"], ["c:/", "//dir"],
  ["c:/", "//server/share"], ["c:/", "//server//share"], ["c:/", "///some//dir"], ["C:\\foo\\tmp.3\\", "..\\tmp.3\\cycles\\root.js"],
  ["\\\\server\\share", "C:"], ["\\\\server\\share", "x", "..", "..", ".."], ["/", "C:"], ["/x", "y"], ["x", "/y", "z"],
  ["C:\\a", "\\b"], ["C:\\a", "\\\\s\\h"], ["\\\\s\\h\\x", "\\y"], ["C:a", "D:b"], ["D:\\", "C:a"]];

const RELATIVE = [["c:/blah\\blah", "d:/games"], ["c:/aaaa/bbbb", "c:/aaaa"], ["c:/aaaa/bbbb", "c:/cccc"], ["c:/aaaa/bbbb", "c:/aaaa/bbbb"],
  ["c:/aaaa/bbbb", "c:/aaaa/cccc"], ["c:/aaaa/", "c:/aaaa/cccc"], ["c:/", "c:\\aaaa\\bbbb"], ["c:/aaaa/bbbb", "d:\\"],
  ["c:/AaAa/bbbb", "c:/aaaa/bbbb"], ["c:/aaaaa/", "c:/aaaa/cccc"], ["C:\\foo\\bar\\baz\\quux", "C:\\"],
  ["C:\\foo\\test", "C:\\foo\\test\\bar\\package.json"], ["C:\\foo\\bar\\baz-quux", "C:\\foo\\bar\\baz"],
  ["C:\\foo\\bar\\baz", "C:\\foo\\bar\\baz-quux"], ["\\\\foo\\bar", "\\\\foo\\bar\\baz"], ["\\\\foo\\bar\\baz", "\\\\foo\\bar"],
  ["\\\\foo\\bar\\baz-quux", "\\\\foo\\bar\\baz"], ["\\\\foo\\bar\\baz", "\\\\foo\\bar\\baz-quux"], ["C:\\baz-quux", "C:\\baz"],
  ["C:\\baz", "C:\\baz-quux"], ["\\\\foo\\baz-quux", "\\\\foo\\baz"], ["\\\\foo\\baz", "\\\\foo\\baz-quux"], ["C:\\baz", "\\\\foo\\bar\\baz"],
  ["\\\\foo\\bar\\baz", "C:\\baz"], ["a", "b"], ["", ""], ["", "x"], ["\\a", "\\a\\b"], ["C:", "C:\\x"], ["C:x", "C:y"], ["\\\\s\\h\\", "\\\\s\\h\\x\\"]];

const NAMESPACED = ["", "C:\\x", "c:/x/../y", "C:", "c:foo", "\\\\server\\share\\x", "//server/share", "\\\\?\\C:\\x", "\\\\.\\pipe",
  "\\x", "x", "..", "\\\\server", 5, null, undefined, { a: 1 }];

const FORMAT = [{ root: "C:\\" }, { dir: "C:\\path\\dir", base: "index.html" }, { root: "C:\\", base: "file.txt" },
  { root: "C:\\", name: "file", ext: ".txt" }, { name: "x", ext: "js" }, { dir: "C:\\a\\", base: "b" }, { root: "\\\\s\\h\\", dir: "\\\\s\\h\\" },
  { dir: "d", root: "r", base: "b", name: "ignored" }, {}, { base: "", name: "n", ext: "" }, { ext: "." }, { root: "C:", dir: "C:" , base: "f" }];

export async function agent() {
  const w = path.win32;
  const attempt = (f) => { try { return f(); } catch (e) { return [e.name, e.code, e.message]; } };
  const out = {};
  out.normalize = P.map((p) => [w.normalize(p), w.isAbsolute(p), w.dirname(p), w.join(p, "x")]);
  out.parse = P.map((p) => [p, w.parse(p)]);
  out.parseFormat = P.map((p) => w.format(w.parse(p)));
  out.resolve = RESOLVE.map((a) => [a, w.resolve(...a)]);
  out.resolveEach = P.map((p) => w.resolve(p));
  out.relative = RELATIVE.map(([a, b]) => [a, b, w.relative(a, b)]);
  out.relativeEach = P.map((p) => [w.relative("C:\\foo\\bar", p), w.relative(p, "\\\\server\\share\\x")]);
  out.namespaced = NAMESPACED.map((p) => w.toNamespacedPath(p));
  out.format = FORMAT.map((o) => w.format(o));
  out.errors = [attempt(() => w.resolve("a", 1)), attempt(() => w.resolve(1, "C:\\x")), attempt(() => w.relative(1, "a")),
    attempt(() => w.relative("a", null)), attempt(() => w.parse(5)), attempt(() => w.format(null)), attempt(() => w.format("x"))];
  return out;
}
