// tests/primordials_shims2/body.js — what tests/cases_primordials_shims2.py runs, untouched and
// then with builtins tampered (tamper.js, before and after the modules' first import): URL and
// URLSearchParams, node:url's helpers, IDNA, node:path and path.win32. Every answer is printed as
// one JSON line; a tampered run must print the same bytes as the untouched one.
//
// This file captures everything it uses itself before any tampering, so that a difference can
// only come from the modules under test. TAMPER_BEFORE / TAMPER_AFTER are replaced by the test.
const cap = {
  create: Object.create, stringify: JSON.stringify, TypeError, iterator: Symbol.iterator,
  keys: Object.keys, log: console.log, defineProperty: Object.defineProperty, apply: Reflect.apply,
  objToString: Object.prototype.toString,
};
// The body's own arrays grow by definition: a setter a tamper put on Array.prototype never runs.
const add = (a, v) => cap.defineProperty(a, a.length, { __proto__: null, value: v, writable: true, enumerable: true,
  configurable: true });
const out = cap.create(null);
let n = 0;
function put(label, f) {
  let v;
  try {
    v = f();
    v = v === undefined ? "undefined" : cap.stringify(v);
  } catch (e) {
    v = "threw " + (e instanceof cap.TypeError ? "TypeError " : "other ") + e.code + " " + e.message;
  }
  out[(n++) + " " + label] = v;
}
// An iterable of the guest's own making, so the array iterator is never involved.
function iterable(items) {
  const o = cap.create(null);
  o[cap.iterator] = function () {
    let i = 0;
    return { next: () => (i < items.length ? { value: items[i++], done: false } : { value: undefined, done: true }) };
  };
  return o;
}
function pairsOf(it) {
  const got = cap.create(null);
  let k = 0;
  for (let r = it.next(); !r.done; r = it.next()) got[k++] = r.value;
  return got;
}

TAMPER_BEFORE

import("node:url").then((url) => import("node:path").then((path) => {
  TAMPER_AFTER

  // ---- URL: parsing ----
  const inputs = ["https://user:pw@B\u00fccher.example:8080/a/../b/./c?x=1&y=2#frag", "http://[::ffff:1.2.3.4]:80/",
    "http://0x7f.1/", "http://1.2.3/", "file:///C:/x/../y", "sc:opaque path?x#y", "http://a%41b.example/%7e?%zz",
    "blob:https://a.b/c", "HTTP://EXAMPLE.com:443/\t/x", "  http://h/ a\n", "https://fa\u00df.de/",
    "https://a\u094d\u200cb/", "ws://h:80/", "non-spec://h/a/../b", "http://[1:0::]/", "file://localhost/a"];
  for (let i = 0; i < inputs.length; i++) {
    put("url", () => {
      const u = new URL(inputs[i]);
      return [u.href, u.origin, u.protocol, u.username, u.password, u.host, u.hostname, u.port, u.pathname,
        u.search, u.hash, u.toJSON(), u.searchParams.toString()];
    });
  }
  put("relative", () => new URL("../x?q#h", "http://h/a/b/c").href);
  put("relative-file", () => new URL("..", "file:///C:/a/").href);
  put("canParse", () => [URL.canParse("http://x"), URL.canParse("nope"), URL.canParse("x", "http://h/")]);
  put("parse", () => [URL.parse("x", "http://h/a/").href, URL.parse("::")]);
  put("invalid", () => new URL("http://exa mple/"));
  put("invalid-base", () => new URL("x", "nope"));
  put("invalid-host", () => new URL("http://a\u200cb/"));

  // ---- URL: setters and the live searchParams ----
  put("setters", () => {
    const u = new URL("https://h/p?a=1#f");
    const seen = [];
    u.protocol = "http"; add(seen, u.href);
    u.username = "us er"; u.password = "p@ss"; add(seen, u.href);
    u.host = "Example.COM:81"; add(seen, u.href);
    u.hostname = "xn--bcher-kva.de"; add(seen, u.href);
    u.port = "80"; add(seen, u.href);
    u.port = ""; add(seen, u.href);
    u.pathname = "/a b/../c"; add(seen, u.href);
    u.search = "?x=1&y=%20"; add(seen, u.searchParams.get("y"));
    u.searchParams.append("z", "3 4"); add(seen, u.href);
    u.searchParams.delete("x"); add(seen, u.search);
    u.hash = "h2"; add(seen, u.href);
    u.search = ""; add(seen, u.searchParams.size);
    u.href = "ftp://f/x"; add(seen, u.origin);
    return seen;
  });
  put("href-invalid", () => { const u = new URL("http://h/"); u.href = "nope"; return u.href; });

  // ---- URLSearchParams ----
  put("params-string", () => {
    const p = new URLSearchParams("?b=2&a=1&a=0&c=%41+b&=e&f");
    const seen = [p.toString(), p.get("a"), p.getAll("a"), p.has("a"), p.has("a", "0"), p.has("zz"), p.size];
    p.sort(); add(seen, p.toString());
    p.set("a", "9"); add(seen, p.toString());
    p.delete("b", "2"); add(seen, p.toString());
    const each = [];
    p.forEach(function (v, k) { add(each, k + "=" + v + (this === p ? "" : "!")); }, p);
    add(seen, each);
    add(seen, pairsOf(p.entries()));
    add(seen, pairsOf(p.keys()));
    add(seen, pairsOf(p.values()));
    add(seen, pairsOf(p[cap.iterator]()));
    return seen;
  });
  put("params-record", () => new URLSearchParams({ x: "1", "y z": "\u00e9", [cap.iterator + ""]: "s" }).toString());
  put("params-iterable", () =>
    new URLSearchParams(iterable([iterable(["a", "1"]), iterable(["b", "\ud800"])])).toString());
  put("params-bad-tuple", () => new URLSearchParams(iterable([iterable(["a"])])));
  put("params-missing", () => new URLSearchParams().append("a"));
  put("params-tag", () => cap.apply(cap.objToString, new URLSearchParams("a=1").entries(), []));

  // ---- node:url helpers ----
  put("fileURLToPath", () => [url.fileURLToPath("file:///tmp/a%20b"), url.fileURLToPath(new URL("file:///x/y"))]);
  put("fileURLToPath-bad", () => url.fileURLToPath("file:///a%2fb"));
  put("fileURLToPath-scheme", () => url.fileURLToPath("http://h/"));
  put("pathToFileURL", () => [url.pathToFileURL("/tmp/a b%\\#?").href, url.pathToFileURL("rel/x/../y/").href]);
  put("domainToASCII", () => [url.domainToASCII("espa\u00f1ol.example"), url.domainToASCII("xn--a.pt"),
    url.domainToASCII("0x7f.1"), url.domainToASCII("EXAMPLE.com")]);
  put("domainToUnicode", () => [url.domainToUnicode("xn--bcher-kva.de"), url.domainToUnicode("[::1]"),
    url.domainToUnicode("xn--a.pt")]);
  put("urlToHttpOptions", () => url.urlToHttpOptions(new URL("http://a:b@[::1]:81/p?q#h")));
  put("format", () => url.format(new URL("http://u:p@xn--bcher-kva.de:81/p?q#h"),
    { auth: false, fragment: false, search: true, unicode: true }));

  // ---- node:url's legacy API ----
  put("legacy-parse", () => {
    const u = url.parse("HTTP://us%3Aer:pw@Host.COM:8080/p a/t\\h?q=1&q=2&r=%20#frag\t", true);
    return [u.protocol, u.slashes, u.auth, u.host, u.port, u.hostname, u.hash, u.search, u.query, u.pathname,
      u.path, u.href];
  });
  put("legacy-parse-more", () => [url.parse("//h/x", false, true).href, url.parse("mailto:a@b").href,
    url.parse("javascript:alert(1)").href, url.parse("http://[::1]:81/").hostname, url.parse("http://b\u00fccher.de/").host]);
  put("legacy-format", () => [url.format({ protocol: "https", hostname: "h", port: 8, pathname: "a?b#c",
    query: { x: ["1", "2"], y: true, z: {} }, hash: "h" }), url.format("http://a b/c"), url.format({ host: "h", pathname: "x" })]);
  put("legacy-resolve", () => [url.resolve("http://a/b/c/d;p?q", "../g"), url.resolve("http://a/b/c", "//x/y"),
    url.resolve("mailto:a@b", "c@d"), url.resolve("/one/two/three", "four"), url.resolve("http://a/b/", "./c/../d/."),
    url.resolve("http://a/b", "https:c")]);
  put("legacy-resolveObject", () => url.resolveObject("http://a/b/c", "../x?y#z").href);

  // ---- node:path ----
  const P = path, W = path.win32;
  put("posix", () => [P.resolve("a/b", "../c", "./d"), P.resolve("/x", "y", "/z/w/.."), P.normalize("/a//b/../c/./"),
    P.normalize("../../a/b/.."), P.join("a", "", "../b", "c/"), P.join(), P.relative("/a/b/c", "/a/d"),
    P.relative("/a", "/a/b/c"), P.relative("/a/b", "/"), P.dirname("/a/b/"), P.dirname("a"), P.dirname("//x"),
    P.basename("/x/.env", ".env"), P.basename("a.js", "a.js"), P.basename("/a/b.txt", ".txt"), P.basename("a/"),
    P.extname("x.tar.gz"), P.extname(".bashrc"), P.extname("a."), P.isAbsolute("/a"), P.isAbsolute("a"),
    P.toNamespacedPath("/a"), P.sep, P.delimiter, P.posix === P]);
  put("posix-parse", () => [P.parse("/home/u/file.txt"), P.parse("rel/x"), P.parse("/"), P.parse(""), P.parse("/..")]);
  put("posix-format", () => [P.format({ dir: "/a", base: "b.c" }), P.format({ root: "/", name: "n", ext: "e" }),
    P.format({ name: "x", ext: ".y" })]);
  put("posix-bad", () => P.join("a", 1));
  put("win32", () => [W.resolve("C:\\a", "b\\..\\c"), W.resolve("a"), W.resolve("\\\\srv\\share\\x", "..\\y"),
    W.normalize("C:/a//b\\..\\c\\"), W.normalize("\\\\srv\\share"), W.join("a", "\\b", "c/"), W.join("\\\\", "srv"),
    W.relative("C:\\a\\b", "C:\\a\\c\\d"), W.relative("C:\\a", "D:\\b"), W.dirname("C:\\a\\b"), W.dirname("C:"),
    W.basename("C:\\x\\y.txt", ".txt"), W.extname("C:\\a.b\\c"), W.isAbsolute("C:\\a"), W.isAbsolute("C:a"),
    W.toNamespacedPath("C:\\a"), W.toNamespacedPath("\\\\srv\\share\\a"), W.sep, W.delimiter, W.posix === P]);
  put("win32-parse", () => [W.parse("C:\\dir\\file.txt"), W.parse("\\\\srv\\share\\a.b"), W.parse("C:")]);
  put("win32-format", () => W.format({ dir: "C:\\a", name: "b", ext: "c" }));

  // a first argument that is not a string: console prints the line without node:util's format
  cap.log(0, cap.stringify(out));
}));
