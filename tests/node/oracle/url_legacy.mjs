// Oracle: the legacy node:url API (url.parse / url.format / url.resolve): escaping of paths,
// queries and hashes, where a host ends, when "//" is written. Known differences (non-ASCII kept
// raw by Node's resolve, resolve against an opaque base such as mailto:) are listed in
// docs/captured-surface.md and stay out of this module.
import url from "node:url";

export async function agent() {
  const R = [["http://a/b/c/d;p?q", "g"], ["http://a/b/c/d;p?q", "../g"], ["/one/two/three", "four"], ["http://example.com/", "/one"],
    ["http://example.com/one", "/two"], ["http://a/b", "g h"], ["http://a/b", "g?x y#z w"], ["http://a/b", "//other/p q"],
    ["http://a/b", "HTTP://X/Y"], ["http://a/b?x", "?y z"], ["http://a/b", "#f g"], ["http://a/b", "x\ty"],
    ["http://a/b", "a'b\"c<d>e`f{g}h|i\\j^k"], ["", "a b"], ["http://u:p@h:1/a/b", "../../../c"], ["http://a/b/", "./"],
    ["file:///a/b", "c"], ["http://a", "b"], ["http://a/b", " c "], ["http://a/b", "c\\d?e\\f"]];
  const F = [{ protocol: "http", host: "a b", pathname: "/x y", search: "q=1 2", hash: "h i" },
    { protocol: "http:", hostname: "h", port: 8, pathname: "p#q?r", query: { a: "b c", d: ["e", "f"] } },
    { protocol: "mailto", pathname: "x@y" }, { host: "h", pathname: "x" }, { protocol: "file", pathname: "/a" },
    { protocol: "https", auth: "u s:p@", hostname: "é.com", pathname: "/é", search: "?é#" }, "http://a b/c d", { pathname: "a?b#c" },
    { protocol: "http", slashes: true, pathname: "/x" }, { protocol: "xyz", slashes: true, host: "h" }, { protocol: "http", pathname: "x" }];
  const P = ["http://a b/c d?e f#g h", "HTTP://User@Host:80/p'q", "//x/y", "a b", "http://x/\\y", "http://a%b/c", "http://a;b/c",
    "http://a^b", "http://u@a b/c", "http://a{b}/c", "http://a_b!c/d"];
  return {
    resolve: R.map(([a, b]) => url.resolve(a, b)),
    format: F.map((o) => url.format(o)),
    formatURL: [url.format(new URL("http://u:p@é.com/a?b#c"), { auth: false, search: false, fragment: false, unicode: true })],
    parse: P.map((s) => { const p = url.parse(s); return [p.host, p.pathname, p.path, p.href]; }),
  };
}
