// Sends each request of input.requests ({path} through node:http, or {url} through fetch) to
// input.host:input.port and reports {status, body} or {error}, in order.
import http from "node:http";

function viaHttp(host, port, path) {
  return new Promise((resolve, reject) => {
    const req = http.request({ hostname: host, port, path, method: "GET" }, (res) => {
      let body = "";
      res.on("data", (c) => { body += c; });
      res.on("end", () => resolve({ status: res.statusCode }));
    });
    req.on("error", reject);
    req.end();
  });
}

export default async function (input) {
  const out = [];
  for (const r of input.requests) {
    try {
      if (r.path !== undefined) out.push(await viaHttp(input.host, input.port, r.path));
      else out.push({ status: (await fetch(r.url)).status });
    } catch (e) {
      out.push({ error: e.message });
    }
  }
  return out;
}
