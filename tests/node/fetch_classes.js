//! stdout-file: fetch_classes.out
// Headers, Request and Response without the network: validation, case-insensitivity, sorted and
// combined iteration, immutability, body-used tracking, clone, the statics.
export async function agent() {
  const out = {};
  const t = (f) => { try { return f(); } catch (e) { return e.name + ": " + e.message; } };

  const h = new Headers([["B", "2"], ["a", " 1 "], ["Set-Cookie", "x=1"], ["set-cookie", "y=2"], ["b", "3"]]);
  out.entries = [...h];
  out.get = [h.get("A"), h.get("b"), h.get("missing"), h.has("SET-COOKIE"), h.getSetCookie()];
  h.set("b", "only");
  h.delete("a");
  out.afterSet = [...h.keys()];
  const seen = [];
  h.forEach((v, k, self) => seen.push(k + "=" + v + (self === h ? "" : "!")));
  out.forEach = seen;
  out.fromObject = [...new Headers({ "X-One": 1, "x-two": true })];
  out.fromHeaders = [...new Headers(new Headers({ z: "last" }))];
  out.badName = t(() => new Headers({ "bad name": "x" }));
  out.badValue = t(() => new Headers().append("x", "a\r\nb"));
  out.wideValue = t(() => new Headers().append("x", "\u2713"));
  out.badPair = t(() => new Headers([["only-one"]]));
  out.tag = Object.prototype.toString.call(h);

  const req = new Request("HTTP://Example.COM", { method: "post", body: "hi", headers: { "X-A": "1" } });
  out.request = [req.method, req.url, req.headers.get("content-type"), req.redirect, req.bodyUsed];
  const copy = req.clone();
  out.requestText = [await req.text(), req.bodyUsed, await copy.text(), await req.text().catch((e) => e.name)];
  out.patch = new Request("http://example.com/", { method: "patch" }).method;
  out.getWithBody = t(() => new Request("http://example.com/", { body: "x" }));
  out.forbidden = t(() => new Request("http://example.com/", { method: "TRACE" }));
  out.badRedirect = t(() => new Request("http://example.com/", { redirect: "sometimes" }));
  out.relative = t(() => new Request("/relative"));
  out.credentials = t(() => new Request("http://user:pw@example.com/"));

  const res = new Response('{"a":1}', { status: 201, statusText: "Made", headers: { "X-R": "r" } });
  out.response = [res.status, res.ok, res.statusText, res.type, res.url, res.redirected, res.headers.get("content-type")];
  out.json = await res.json();
  out.used = [res.bodyUsed, await res.json().catch((e) => e.name), t(() => res.clone())];
  const bin = new Response(new Uint8Array([1, 2, 3]));
  out.binary = [bin.headers.get("content-type"), Array.from(new Uint8Array(await bin.arrayBuffer()))];
  out.empty = [new Response().body, await new Response().text(), new Response(null, { status: 204 }).status];
  out.nullBodyStatus = t(() => new Response("x", { status: 204 }));
  out.badStatus = t(() => new Response("x", { status: 99 }));
  const j = Response.json({ ok: true }, { status: 202 });
  out.static_json = [j.status, j.headers.get("content-type"), await j.text()];
  const e = Response.error();
  out.static_error = [e.type, e.status, e.ok, t(() => e.headers.set("x", "1"))];
  const r = Response.redirect("http://example.com/next", 307);
  out.static_redirect = [r.status, r.headers.get("location"), t(() => Response.redirect("http://example.com/", 200))];
  out.blob = await new Response("x").blob().then(async (b) => [b.type, b.size, await b.text()], (err) => err.name);
  const streamed = new Response("chunked");
  const reader = streamed.body.getReader();
  const first = await reader.read();
  out.reader = [first.value.length, (await reader.read()).done, streamed.bodyUsed];
  return out;
}
