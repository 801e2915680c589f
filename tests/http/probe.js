// Tries each request in input.requests ({url, init?, via?: "fetch" | "http"}) and reports each
// outcome: {status, body} or {error}. The base URL (input.base) is printed as BASE.
import http from "node:http";

function viaHttp(url) {
  return new Promise((resolve, reject) => {
    http.get(url, (res) => {
      let body = "";
      res.on("data", (c) => { body += c; });
      res.on("end", () => resolve({ status: res.statusCode, body }));
    }).on("error", reject);
  });
}

export default async function (input) {
  const strip = (s) => (input.base ? s.split(input.base).join("BASE") : s);
  const out = [];
  for (const r of input.requests) {
    try {
      if (r.via === "http") {
        const got = await viaHttp(r.url);
        out.push({ status: got.status, body: got.body.slice(0, 40) });
      } else {
        const res = await fetch(r.url, r.init);
        const body = await res.text();
        out.push({ status: res.status, length: body.length, body: body.slice(0, 40) });
      }
    } catch (e) {
      out.push({ error: e.name + ": " + strip(e.message) });
    }
  }
  return out;
}
