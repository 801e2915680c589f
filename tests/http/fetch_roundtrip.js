// fetch against the local test server (tests/http/server.py): headers, JSON, redirects, bodies.
// Prints only what does not change between runs (no Date, no port).
export default async function (input) {
  const base = input.base;
  const strip = (s) => s.split(base).join("BASE");
  const out = {};

  // GET with headers given three ways
  const h = new Headers({ "X-From-Object": "1" });
  h.append("X-Multi", "a");
  h.append("x-multi", "b");
  const r1 = await fetch(base + "/echo?x=1", { headers: h });
  const e1 = await r1.json();
  out.get = { status: r1.status, ok: r1.ok, statusText: r1.statusText, type: r1.type, url: strip(r1.url),
    redirected: r1.redirected, echoed: [e1.method, e1.query, e1.headers["x-from-object"], e1.headers["x-multi"]],
    contentType: r1.headers.get("Content-Type"), bodyUsed: r1.bodyUsed };
  const r2 = await fetch(new Request(base + "/echo", { headers: [["X-Pair", "p"]] }));
  out.pairs = (await r2.json()).headers["x-pair"];

  // POST JSON
  const r3 = await fetch(base + "/echo", { method: "post", body: JSON.stringify({ a: [1, "two"] }),
    headers: { "content-type": "application/json" } });
  const e3 = await r3.json();
  out.post = { method: e3.method, body: JSON.parse(e3.body), contentType: e3.headers["content-type"],
    length: e3.headers["content-length"] };

  // bodies of every kind
  const kinds = {
    string: "héllo",
    arrayBuffer: new Uint8Array([104, 105]).buffer,
    uint8: new Uint8Array([0x68, 0xc3, 0xa9]),
    dataView: new DataView(new Uint8Array([65, 66, 67, 68]).buffer, 1, 2),
  };
  out.bodies = {};
  for (const [k, body] of Object.entries(kinds)) {
    const e = await (await fetch(base + "/echo", { method: "PUT", body })).json();
    out.bodies[k] = [e.method, e.body, e.headers["content-type"] ?? null];
  }

  // URLSearchParams (when node:url is there) goes as a form
  let params = null;
  try { params = new URLSearchParams({ q: "a b", n: "1" }); } catch (_) { /* node:url not there yet */ }
  if (params) {
    const e = await (await fetch(base + "/echo", { method: "POST", body: params })).json();
    out.form = [e.body, e.headers["content-type"]];
  }

  // response headers: sorted, combined, set-cookie apart, Latin-1
  const r4 = await fetch(base + "/headers");
  out.headers = [...r4.headers].filter(([n]) => n !== "date" && n !== "server");
  out.setCookie = r4.headers.getSetCookie();
  out.latin1 = r4.headers.get("x-latin1");

  // redirects: followed, manual, 303 after POST, 307 keeps the body
  const r5 = await fetch(base + "/chain/3");
  out.follow = [r5.status, strip(r5.url), r5.redirected, await r5.text()];
  const r6 = await fetch(base + "/chain/3", { redirect: "manual" });
  out.manual = [r6.status, r6.headers.get("location"), r6.redirected, strip(r6.url)];
  const r7 = await fetch(base + "/redirect?status=303&to=/echo", { method: "POST", body: "gone",
    headers: { "content-type": "text/plain" } });
  const e7 = await r7.json();
  out.see_other = [e7.method, e7.body, e7.headers["content-type"] ?? null, r7.redirected];
  const r8 = await fetch(base + "/redirect?status=307&to=/echo", { method: "POST", body: "kept" });
  const e8 = await r8.json();
  out.temporary = [e8.method, e8.body];
  out.redirect_error = await fetch(base + "/chain/1", { redirect: "error" }).then(() => "no error", (e) => e.name + ": " + strip(e.message));

  // statuses and bodies
  const head = await fetch(base + "/echo", { method: "HEAD" });
  out.head = [head.status, head.body, await head.text()];
  const nc = await fetch(base + "/status/204");
  out.noContent = [nc.status, nc.ok, nc.body];
  const custom = await fetch(base + "/status/299");
  out.custom = [custom.status, custom.statusText, await custom.text()];
  const nf = await fetch(base + "/nope");
  out.notFound = [nf.status, nf.ok, nf.statusText];

  // body-used tracking, clone, bytes, arrayBuffer, the stream stand-in
  const r9 = await fetch(base + "/status/200");
  const c9 = r9.clone();
  out.clone = [await r9.text(), r9.bodyUsed, await r9.text().catch((e) => e.name), await c9.arrayBuffer().then((b) => b.byteLength)];
  const r10 = await fetch(base + "/status/201");
  const chunks = [];
  for await (const c of r10.body) chunks.push(c.length);
  out.stream = [chunks, r10.bodyUsed];
  out.bytes = Array.from(await (await fetch(base + "/status/202")).bytes()).slice(0, 6);

  // bytes survive both ways at every length mod 3; UTF-8 decoding replaces bad sequences
  const all = new Uint8Array(256).map((_, i) => i);
  const lengths = [0, 1, 2, 3, 4, 5, 256];
  out.roundtrip = [];
  for (const n of lengths) {
    const sent = all.slice(0, n).reverse();
    const back = await (await fetch(base + "/raw", { method: "POST", body: sent })).bytes();
    out.roundtrip.push(back.length === n && back.every((b, i) => b === sent[i]));
  }
  const bad = await (await fetch(base + "/raw", { method: "POST", body: new Uint8Array([0xef, 0xbb, 0xbf, 0xff, 0x61, 0xe2, 0x82, 0x62, 0xf0, 0x9f, 0x98, 0x80]) })).text();
  out.decoded = Array.from(bad, (c) => c.codePointAt(0).toString(16));

  // an already-aborted signal never reaches the host
  let signal;
  try {
    const ac = new AbortController();
    ac.abort();
    signal = ac.signal;
  } catch (_) { // AbortController not there yet: a stand-in aborted signal
    signal = { aborted: true, reason: undefined };
  }
  out.aborted = await fetch(base + "/echo", { signal }).then(() => "sent", (e) => e.name);
  return out;
}
