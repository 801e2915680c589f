// client.test.mjs — the client's HTTP behaviour (retry rule, timeouts, error mapping, SSE
// reading) against a scripted local server on 127.0.0.1. The real server is in e2e.test.mjs.
import { test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import net from "node:net";
import { AgentClient, ConnectionError, HttpError, TimeoutError } from "../index.js";

// Starts a server whose handler is `route(req, res, body, hits)`; returns {url, hits, close}.
async function fakeServer(route) {
  const hits = [];
  const sockets = new Set();
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      hits.push({ method: req.method, url: req.url, headers: req.headers, body });
      route(req, res, body, hits);
    });
  });
  server.on("connection", (s) => { sockets.add(s); s.on("close", () => sockets.delete(s)); });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    hits,
    server,
    close: () => new Promise((r) => { for (const s of sockets) s.destroy(); server.close(r); }),
  };
}

function json(res, status, body, headers = {}) {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

async function freePort() {
  const s = net.createServer();
  await new Promise((r) => s.listen(0, "127.0.0.1", r));
  const port = s.address().port;
  await new Promise((r) => s.close(r));
  return port;
}

test("an error answer becomes HttpError with the server's message", async () => {
  const srv = await fakeServer((req, res) => json(res, 404, { error: "Session not found" }));
  try {
    const c = new AgentClient(srv.url, { retries: 0 });
    const err = await c.getSession("nope").catch((e) => e);
    assert.ok(err instanceof HttpError);
    assert.equal(err.status, 404);
    assert.equal(err.error, "Session not found");
    assert.deepEqual(err.body, { error: "Session not found" });
    assert.match(err.message, /GET \/sessions\/nope: 404 Session not found/);
  } finally { await srv.close(); }
});

test("a non-JSON error body is kept as text", async () => {
  const srv = await fakeServer((req, res) => { res.writeHead(500); res.end("boom"); });
  try {
    const err = await new AgentClient(srv.url, { retries: 0 }).health().catch((e) => e);
    assert.ok(err instanceof HttpError);
    assert.equal(err.body, "boom");
    assert.equal(err.error, null);
  } finally { await srv.close(); }
});

test("bearer auth, JSON body, and the session body's field names", async () => {
  const srv = await fakeServer((req, res) => json(res, 201, { id: "s1", status: "completed" }));
  try {
    const c = new AgentClient(srv.url + "/", { apiKey: "k3y" });
    const s = await c.run({ a: 1 }, { policyProfile: "supervised", sessionId: "s1" });
    assert.equal(s.id, "s1");
    const h = srv.hits[0];
    assert.equal(h.url, "/sessions");
    assert.equal(h.headers.authorization, "Bearer k3y");
    assert.equal(h.headers["content-type"], "application/json");
    assert.deepEqual(JSON.parse(h.body), { input: { a: 1 }, policy_profile: "supervised", session_id: "s1" });
    await c.run({}, { wait: true });
    await c.run({}, { wait: false });
    await c.approve("s1", "deny", { wait: false });
    await c.replay("s1");
    assert.deepEqual(srv.hits.slice(1).map((x) => JSON.parse(x.body)),
      [{ input: {} }, { input: {}, wait: false }, { decision: "deny", wait: false }, {}]);
  } finally { await srv.close(); }
});

test("session ids are escaped into the path", async () => {
  const srv = await fakeServer((req, res) => json(res, 200, { id: "a/b", status: "paused" }));
  try {
    await new AgentClient(srv.url).resume("a/b ?", "yes");
    assert.equal(srv.hits[0].url, "/sessions/a%2Fb%20%3F/resume");
    assert.deepEqual(JSON.parse(srv.hits[0].body), { response: "yes" });
    await assert.rejects(() => new AgentClient(srv.url).approve("x", "maybe"), TypeError);
  } finally { await srv.close(); }
});

test("a GET is retried on 503 (honouring Retry-After), then succeeds", async () => {
  const srv = await fakeServer((req, res, body, hits) =>
    hits.length < 3 ? json(res, 503, { error: "busy" }, { "retry-after": "0" }) : json(res, 200, { sessions: [] }));
  try {
    const list = await new AgentClient(srv.url, { retries: 2, retryDelayMs: 10 }).listSessions();
    assert.deepEqual(list, []);
    assert.equal(srv.hits.length, 3);
  } finally { await srv.close(); }
});

test("a GET gives up after `retries` extra attempts", async () => {
  const srv = await fakeServer((req, res) => json(res, 502, { error: "bad gateway" }));
  try {
    const err = await new AgentClient(srv.url, { retries: 1, retryDelayMs: 5 }).getSession("s").catch((e) => e);
    assert.ok(err instanceof HttpError);
    assert.equal(err.status, 502);
    assert.equal(srv.hits.length, 2);
  } finally { await srv.close(); }
});

test("a POST is never sent twice: not on 503, not on a dropped connection, not on a timeout", async () => {
  const srv = await fakeServer((req, res) => {
    if (req.url.endsWith("/approve")) json(res, 503, { error: "busy" }, { "retry-after": "1" });
    else if (req.url.endsWith("/resume")) req.socket.destroy();
    else if (req.url === "/sessions") { /* never answers */ }
  });
  try {
    const c = new AgentClient(srv.url, { retries: 3, retryDelayMs: 5, timeoutMs: 300 });
    const e1 = await c.approve("s", "allow").catch((e) => e);
    assert.ok(e1 instanceof HttpError);
    assert.equal(e1.retryAfter, 1);
    const e2 = await c.resume("s", "x").catch((e) => e);
    assert.ok(e2 instanceof ConnectionError, String(e2));
    assert.ok(!e2.notSent);
    const e3 = await c.run({}).catch((e) => e);
    assert.ok(e3 instanceof TimeoutError, String(e3));
    assert.deepEqual(srv.hits.map((h) => h.url), ["/sessions/s/approve", "/sessions/s/resume", "/sessions"]);
  } finally { await srv.close(); }
});

test("a GET is retried after a dropped connection and after a timeout", async () => {
  const srv = await fakeServer((req, res, body, hits) => {
    if (hits.length === 1) req.socket.destroy();
    else if (hits.length === 2) { /* silent: times out */ }
    else json(res, 200, { status: "ok" });
  });
  try {
    const c = new AgentClient(srv.url, { retries: 2, retryDelayMs: 5, timeoutMs: 200 });
    assert.deepEqual(await c.health(), { status: "ok" });
    assert.equal(srv.hits.length, 3);
  } finally { await srv.close(); }
});

test("a refused connection is ConnectionError; a POST is retried only then (nothing was sent)", async () => {
  const port = await freePort();
  const c0 = new AgentClient(`http://127.0.0.1:${port}`, { retries: 0 });
  const err = await c0.run({}).catch((e) => e);
  assert.ok(err instanceof ConnectionError, String(err));
  assert.equal(err.notSent, true);
  assert.match(err.message, /ECONNREFUSED/);

  // The server comes up during the backoff: the POST's second attempt reaches it, once.
  const hits = [];
  const server = http.createServer((req, res) => { hits.push(req.url); json(res, 201, { id: "s", status: "completed" }); });
  setTimeout(() => server.listen(port, "127.0.0.1"), 100);
  try {
    const c = new AgentClient(`http://127.0.0.1:${port}`, { retries: 4, retryDelayMs: 80 });
    const s = await c.run({});
    assert.equal(s.status, "completed");
    assert.deepEqual(hits, ["/sessions"]);
  } finally { await new Promise((r) => server.close(r)); }
});

test("run({wait: true}) polls a running session until it settles", async () => {
  let polls = 0;
  const srv = await fakeServer((req, res) => {
    if (req.method === "POST") return json(res, 201, { id: "s", status: "running" });
    if (req.url === "/sessions/forever") return json(res, 200, { id: "forever", status: "running" });
    polls++;
    json(res, 200, { id: "s", status: polls < 3 ? "running" : "paused", pending_prompt: "?" });
  });
  try {
    const s = await new AgentClient(srv.url).run({}, { wait: true });
    assert.equal(s.status, "paused");
    assert.equal(polls, 3);
    const err = await new AgentClient(srv.url).waitFor("forever", { waitTimeoutMs: 100 }).catch((e) => e);
    assert.ok(err instanceof TimeoutError, String(err));
    assert.match(err.message, /still running/);
  } finally { await srv.close(); }
});

function sse(res, parts, { end = true, gap = 5 } = {}) {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  let i = 0;
  const next = () => {
    if (i < parts.length) { res.write(parts[i++]); setTimeout(next, gap); }
    else if (end) res.end();
  };
  next();
}

test("stream yields typed events across odd chunking and keep-alives, and stops at done", async () => {
  const srv = await fakeServer((req, res) => sse(res, [
    ": keep-alive\n\n",
    "event: call\ndata: {\"seq\":0,\"function\":\"log\",",
    "\"args\":{}}\n\nevent: prompt_delta\r\ndata: {\"delta\":\"hi\"}\r\n\r\n",
    "event: call\ndata: {\"seq\":1,\"function\":\"mark\"}\n\n",
    "event: done\ndata: {\"id\":\"s\",\"status\":\"completed\",\"output\":1}\n\n",
    "event: call\ndata: {\"seq\":99}\n\n",
  ]));
  try {
    const c = new AgentClient(srv.url, { apiKey: "k" });
    const evs = [];
    for await (const ev of c.stream({ x: 1 }, { policyProfile: "supervised" })) evs.push(ev);
    assert.deepEqual(evs.map((e) => e.type), ["call", "prompt_delta", "call", "done"]);
    assert.equal(evs[0].record.function, "log");
    assert.equal(evs[1].delta, "hi");
    assert.equal(evs[3].status, "completed");
    assert.equal(srv.hits[0].headers.accept, "text/event-stream");
    assert.deepEqual(JSON.parse(srv.hits[0].body), { input: { x: 1 }, policy_profile: "supervised" });
  } finally { await srv.close(); }
});

test("a stream that ends before done is a ConnectionError", async () => {
  const srv = await fakeServer((req, res) => sse(res, ["event: call\ndata: {\"seq\":0}\n\n"]));
  try {
    const evs = [];
    const err = await (async () => { for await (const ev of new AgentClient(srv.url).attach("s")) evs.push(ev); })().catch((e) => e);
    assert.ok(err instanceof ConnectionError, String(err));
    assert.equal(evs.length, 1);
    assert.equal(srv.hits[0].url, "/sessions/s/stream");
  } finally { await srv.close(); }
});

test("a silent stream times out; keep-alive comments keep it open", async () => {
  const srv = await fakeServer((req, res) => {
    if (req.url === "/sessions/quiet/stream") return sse(res, ["event: call\ndata: {}\n\n"], { end: false });
    sse(res, [": ka\n\n", ": ka\n\n", ": ka\n\n", ": ka\n\n", "event: done\ndata: {}\n\n"], { gap: 60 });
  });
  try {
    const c = new AgentClient(srv.url, { timeoutMs: 150, retries: 0 });
    const err = await (async () => { for await (const _ of c.attach("quiet")); })().catch((e) => e);
    assert.ok(err instanceof TimeoutError, String(err));
    const types = [];
    for await (const ev of c.attach("chatty")) types.push(ev.type); // 300 ms in all, never 150 silent
    assert.deepEqual(types, ["done"]);
  } finally { await srv.close(); }
});

test("a stream refused with an HTTP error is HttpError; leaving early closes the connection", async () => {
  let closed = false;
  const srv = await fakeServer((req, res) => {
    if (req.url === "/sessions/stream") return json(res, 400, { error: "unknown policy profile" });
    res.on("close", () => { closed = true; });
    sse(res, ["event: call\ndata: {\"seq\":0}\n\n"], { end: false });
  });
  try {
    const c = new AgentClient(srv.url, { retries: 0 });
    const err = await (async () => { for await (const _ of c.stream({}, { policyProfile: "nope" })); })().catch((e) => e);
    assert.ok(err instanceof HttpError);
    assert.equal(err.error, "unknown policy profile");
    for await (const ev of c.attach("s")) { assert.equal(ev.type, "call"); break; }
    for (let i = 0; i < 50 && !closed; i++) await new Promise((r) => setTimeout(r, 10));
    assert.ok(closed, "the server saw the connection close");
  } finally { await srv.close(); }
});
