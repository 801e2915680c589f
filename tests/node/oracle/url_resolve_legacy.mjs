// Oracle: legacy url.resolve / url.resolveObject / Url#resolve — non-ASCII kept as typed in
// paths, queries and fragments, bases without "//" (mailto:, data:, urn:, javascript:), dot
// segments, scheme changes, protocol-relative references and auth carried in the host.
import url from "node:url";

const C = [["http://a.com/b/c", "ü/ö"], ["http://a.com/", "/päth?q=ä#ß"], ["http://ü.com/x", "y"], ["http://a.com/", "http://bü.com/ä"],
  ["mailto:a@b.com", "c"], ["mailto:a@b.com", "mailto:x@y"], ["mailto:a@b.com", "?subject=hi"], ["mailto:a@b.com", "#f"],
  ["mailto:a@b.com", "//h/p"], ["mailto:a@b.com", "/abs"], ["mailto:a@b.com", ""], ["mailto:local1@domain1", "local2@domain2"],
  ["mailto:local1@domain1", "../x"], ["data:text/plain,x", "y"], ["javascript:void(0)", "x"], ["urn:isbn:123", "456"],
  ["news:comp.lang", "x"], ["x:y", "z"], ["http://a/b", "mailto:q"], ["http://a.com/ b", "c d"], ["http://a.com/\u00e9", "\u4e2d"],
  ["http://a.com/", "  x  "], ["http://a.com/", "\ttab"], ["file:///a/b", "ç"], ["http://a/b?q=1", "?r=é"],
  ["/foo/bar/baz", "quux"], ["/foo/bar/baz", "../../../../../../../../quux/baz"], ["foo/bar", "../../../baz"], ["foo/bar/", "../../../baz"],
  ["http://example.com/b//c//d;p?q#blarg", "https:#hash2"], ["http://example.com/b//c//d;p?q#blarg", "https:/p/a/t/h?s#hash2"],
  ["http://example.com/b//c//d;p?q#blarg", "https://u:p@h.com/p/a/t/h?s#hash2"], ["http://example.com/b//c//d;p?q#blarg", "https:/a/b/c/d"],
  ["http://example.com/b//c//d;p?q#blarg", "http:#hash2"], ["http://example.com/b//c//d;p?q#blarg", "http:/p/a/t/h?s#hash2"],
  ["http://example.com/b//c//d;p?q#blarg", "mailto:u@h"], ["http://a/b/c/d;p?q", "g:h"], ["http://a/b/c/d;p?q", "./g"],
  ["http://a/b/c/d;p?q", "g/"], ["http://a/b/c/d;p?q", "//g"], ["http://a/b/c/d;p?q", "?y"], ["http://a/b/c/d;p?q", "g?y"],
  ["http://a/b/c/d;p?q", "#s"], ["http://a/b/c/d;p?q", ";x"], ["http://a/b/c/d;p?q", "."], ["http://a/b/c/d;p?q", "./"],
  ["http://a/b/c/d;p?q", ".."], ["http://a/b/c/d;p?q", "../g"], ["http://a/b/c/d;p?q", "../.."], ["http://a/b/c/d;p?q", "../../../g"],
  ["http://a/b/c/d;p?q", "/./g"], ["http://a/b/c/d;p?q", "g."], ["http://a/b/c/d;p?q", "..g"], ["http://a/b/c/d;p?q", "./../g"],
  ["http://a/b/c/d;p?q", "g;x=1/../y"], ["http://a/b/c/d;p?q", "http:g"], ["http://u:p@a/b", "c"], ["http://u:p@a/b", "//v@b/c"],
  ["http://a/b", "https:c"], ["http://a/b", "file:c"], ["file:///x/y", "//h/z"], ["http://[::1]:80/a", "b"], ["", "a"], ["a", ""],
  ["http://a.com/%C3%A9/", "é"], ["http://a.com", "b\\c"], ["http://a.com/b", "c?x\\y"], ["http://a.com/", "{}|^`"]];

export async function agent() {
  const attempt = (f) => { try { return f(); } catch (e) { return e.name + ": " + e.message; } };
  const out = {};
  out.resolve = C.map(([a, b]) => [a, b, attempt(() => url.resolve(a, b))]);
  out.object = C.slice(0, 14).map(([a, b]) => attempt(() => { const r = url.resolveObject(a, b); return [r.href, r.protocol, r.host, r.auth, r.pathname, r.search, r.hash, r.path]; }));
  out.method = C.slice(0, 10).map(([a, b]) => attempt(() => url.parse(a).resolve(b)));
  return out;
}
