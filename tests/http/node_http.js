// node:http and node:https clients against the local test server (tests/http/server.py).
import http from "node:http";
import { get, request } from "node:http";
import https from "node:https";

function collect(res) {
  return new Promise((resolve, reject) => {
    let body = "";
    res.on("data", (c) => { body += c; });
    res.on("end", () => resolve(body));
    res.on("error", reject);
  });
}

export default async function (input) {
  const base = input.base;
  const out = {};

  // http.get with a callback, body as Buffer-like chunks
  out.get = await new Promise((resolve, reject) => {
    get(base + "/echo?q=1", { headers: { "X-Node": "yes" } }, (res) => {
      collect(res).then((body) => {
        const e = JSON.parse(body);
        resolve({ status: res.statusCode, message: res.statusMessage, type: res.headers["content-type"],
          echo: [e.method, e.query, e.headers["x-node"]] });
      }, reject);
    }).on("error", reject);
  });

  // http.request POST with write/end, setHeader/getHeader/removeHeader, setEncoding
  out.post = await new Promise((resolve, reject) => {
    const [, hostname, port] = /^http:\/\/([^:/]+):(\d+)$/.exec(base);
    const req = request({ hostname, port: Number(port), path: "/echo?via=options", method: "post",
      headers: { "Content-Type": "application/json", "Content-Length": 13 } });
    req.setHeader("X-Set", "1");
    req.setHeader("X-Remove", "gone");
    req.removeHeader("X-Remove");
    const names = req.getHeaderNames();
    req.on("response", (res) => {
      res.setEncoding("utf8");
      let text = "";
      res.on("data", (s) => { text += s; });
      res.on("end", () => {
        const e = JSON.parse(text);
        resolve({ got: req.getHeader("x-set"), names, method: e.method, query: e.query, body: JSON.parse(e.body),
          set: e.headers["x-set"], removed: e.headers["x-remove"] ?? null, type: e.headers["content-type"] });
      });
    });
    req.on("error", reject);
    req.write('{"n": ');
    req.end("[1, 2]}");
  });

  // headers and rawHeaders of a response; async iteration
  out.headers = await new Promise((resolve, reject) => {
    http.get(base + "/headers", async (res) => {
      const chunks = [];
      for await (const c of res) chunks.push(String(c));
      const { date, server, ...rest } = res.headers;
      const raw = [];
      for (let i = 0; i < res.rawHeaders.length; i += 2) {
        if (res.rawHeaders[i] !== "date" && res.rawHeaders[i] !== "server") raw.push(res.rawHeaders[i] + "=" + res.rawHeaders[i + 1]);
      }
      resolve({ headers: rest, raw, body: chunks.join("") });
    }).on("error", reject);
  });

  // redirects are not followed by node:http
  out.redirect = await new Promise((resolve, reject) => {
    http.get(base + "/chain/2", (res) => { res.resume(); resolve([res.statusCode, res.headers.location]); }).on("error", reject);
  });

  // errors: protocol mismatch, servers, agents
  const tryIt = (f) => { try { f(); return "no error"; } catch (e) { return (e.code ?? e.name) + ": " + e.message.split(":")[0]; } };
  out.errors = {
    httpsOnHttp: tryIt(() => https.get(base + "/echo")),
    httpOnHttps: tryIt(() => http.get("https://127.0.0.1/")),
    server: tryIt(() => http.createServer()),
    agent: tryIt(() => new http.Agent()),
  };
  return out;
}
