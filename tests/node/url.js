//! stdout-contains: "failures": []
// node:url and the URL / URLSearchParams globals, checked without Node (the oracle comparison is
// tests/cases_url_crypto.py): globals are the module's classes, searchParams is live both ways,
// helpers and errors look like Node's.
import url, { URL as ModuleURL, URLSearchParams as ModuleParams, fileURLToPath, pathToFileURL, domainToASCII } from "node:url";
import * as bare from "url";

export async function agent() {
  const failures = [];
  const eq = (name, got, want) => { if (JSON.stringify(got) !== JSON.stringify(want)) failures.push({ name, got, want }); };
  eq("global URL is node:url's", URL === ModuleURL && URLSearchParams === ModuleParams && bare.URL === URL, true);
  eq("default export", url.URL === URL, true);
  const u = new URL("HTTP://User:Pw@EXAMPLE.com:80/a/./b/../c?x=1&y=2#frag");
  eq("href", u.href, "http://User:Pw@example.com/a/c?x=1&y=2#frag");
  eq("origin", u.origin, "http://example.com");
  u.searchParams.append("z", "a b");
  eq("params → url", u.search, "?x=1&y=2&z=a+b");
  u.search = "?q=%41";
  eq("url → params", u.searchParams.get("q"), "A");
  u.port = "8080"; u.hostname = "0x7f.1"; u.hash = "";
  eq("setters", u.href, "http://User:Pw@127.0.0.1:8080/a/c?q=%41");
  eq("ipv6", new URL("http://[0:0::1]/").host, "[::1]");
  eq("idna", new URL("http://bücher.example/").hostname, "xn--bcher-kva.example");
  eq("relative", new URL("../x?y#z", "http://h/a/b/c").href, "http://h/a/x?y#z");
  eq("canParse", [URL.canParse("nope"), URL.canParse("x", "http://h/")], [false, true]);
  eq("parse", [URL.parse("nope"), String(URL.parse("/p", "https://h"))], [null, "https://h/p"]);
  let err;
  try { new URL("http://exa mple.com"); } catch (e) { err = [e.name, e.code, e.input]; }
  eq("invalid", err, ["TypeError", "ERR_INVALID_URL", "http://exa mple.com"]);
  const p = new URLSearchParams({ b: "2", a: "1" });
  p.sort();
  eq("params", [p.toString(), p.size, [...p.keys()]], ["a=1&b=2", 2, ["a", "b"]]);
  eq("fileURLToPath", fileURLToPath("file:///tmp/a%20b"), "/tmp/a b");
  eq("pathToFileURL", pathToFileURL("/tmp/a b#?").href, "file:///tmp/a%20b%23%3F");
  eq("domainToASCII", domainToASCII("español.com"), "xn--espaol-zwa.com");
  eq("legacy parse", url.parse("https://u@h.com:8/p?q=1#f").host, "h.com:8");
  eq("class strings", [Object.prototype.toString.call(new URL("http://h")), String(new URLSearchParams().keys()),
    Object.prototype.toString.call(new URLSearchParams())], ["[object URL]", "[object URLSearchParams Iterator]", "[object URLSearchParams]"]);
  eq("JSON", JSON.stringify({ u: new URL("http://h") }), '{"u":"http://h/"}');
  // A host that maps to nothing normalizes an empty string (undefined behaviour in QuickJS
  // before patches/quickjs/0007, caught by the asan variant).
  eq("empty host after mapping", [URL.canParse("http://\u00ad/"), "".normalize("NFKC"), "".normalize()], [false, "", ""]);
  return { failures };
}
