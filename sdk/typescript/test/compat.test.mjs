// compat.test.mjs — the original chidori TypeScript SDK's interface, against a scripted local
// server: Session (the view plus camelCase accessors, ok, checkpoint(), replay()), Checkpoint
// (toJSON / fromJSON), replay(checkpoint) as replay_from, signal and isSignalQueued,
// getSnapshotManifest, AgentClientError and the errors' fields, events with their payload's fields.
import { test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import {
  AgentClient, AgentClientError, ChidoriError, Checkpoint, ConnectionError, HttpError, Session, TimeoutError,
  isSignalQueued, typedEvent,
} from "../index.js";

const RECORD = { seq: 1, function: "prompt", args: { text: "hi" }, result: "there", duration_ms: 3, timestamp: "2026-01-02T03:04:05.000Z" };
const MANIFEST = { run_id: "r-1", abi: { engine_fork: "chidori-c" }, policy: {}, snapshot_file: "runtime.snapshot" };

// A server answering `route(req, body, hits)` → [status, json]; records {method, url, headers, body}.
async function scripted(route) {
  const hits = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      hits.push({ method: req.method, url: req.url, headers: req.headers, body: body ? JSON.parse(body) : null });
      const answer = route(req, hits);
      if (!answer) return; // never answers
      const [status, json] = answer;
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(json));
    });
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    hits,
    close: () => new Promise((r) => { server.closeAllConnections(); server.close(r); }),
  };
}

test("a Session is the view, with the original accessors on top", async () => {
  const view = { id: "s1", status: "paused", input: { a: 1 }, output: null, error: null, pending_prompt: "Ship it?", run_id: "r-1", call_count: 2 };
  const srv = await scripted(() => [201, view]);
  try {
    const s = await new AgentClient(srv.url).run({ a: 1 });
    assert.ok(s instanceof Session);
    assert.deepEqual(JSON.parse(JSON.stringify(s)), view);
    assert.equal(s.pending_prompt, "Ship it?");
    assert.equal(s.pendingPrompt, "Ship it?");
    assert.equal(s.runId, "r-1");
    assert.equal(s.callCount, 2);
    assert.equal(s.ok, false);
    assert.deepEqual(s.callLog, []);
    assert.equal(s.snapshotManifest, null);
    assert.deepEqual(s.pendingSignalNames, []);
    const byHand = new Session("x", "completed", { q: 1 }, { v: 2 });
    assert.equal(byHand.ok, true);
    assert.deepEqual(byHand.output, { v: 2 });
    await assert.rejects(() => byHand.replay(), /no client bound/);
  } finally { await srv.close(); }
});

test("checkpoint() fetches the log once; Checkpoint round-trips through JSON", async () => {
  const srv = await scripted((req) => req.url === "/sessions"
    ? [201, { id: "s7", status: "completed", input: { q: 1 }, output: { ok: true } }]
    : [200, { id: "s7", status: "completed", input: { q: 1 }, call_log: [RECORD], snapshot_manifest: MANIFEST }]);
  try {
    const client = new AgentClient(srv.url);
    const s = await client.run({ q: 1 });
    const cp = await s.checkpoint();
    assert.ok(cp instanceof Checkpoint);
    assert.deepEqual([cp.sessionId, cp.input, cp.callLog, cp.snapshotManifest], ["s7", { q: 1 }, [RECORD], MANIFEST]);
    await s.checkpoint();
    assert.deepEqual(srv.hits.map((h) => h.url), ["/sessions", "/sessions/s7/checkpoint"]);
    assert.deepEqual(cp.toJSON(), { session_id: "s7", input: { q: 1 }, call_log: [RECORD], snapshot_manifest: MANIFEST });
    const back = Checkpoint.fromJSON(JSON.parse(JSON.stringify(cp)));
    assert.deepEqual(back.toJSON(), cp.toJSON());
    assert.equal("snapshot_manifest" in new Checkpoint("a", {}, []).toJSON(), false);
    assert.throws(() => Checkpoint.fromJSON({ session_id: "x" }), TypeError);
    const byId = await client.checkpoint("s7");
    assert.deepEqual(byId.toJSON(), cp.toJSON());
  } finally { await srv.close(); }
});

test("replay(checkpoint) sends replay_from; replay(id) keeps the server's replay route", async () => {
  const srv = await scripted((req, hits) => req.url.endsWith("/checkpoint")
    ? [200, { call_log: [RECORD], snapshot_manifest: MANIFEST }]
    : [201, { id: `n${hits.length}`, status: "completed", input: { q: 1 }, output: 1 }]);
  try {
    const client = new AgentClient(srv.url);
    const r = await client.replay(new Checkpoint("old", { q: 1 }, [RECORD]));
    assert.ok(r instanceof Session && r.ok);
    await client.replay({ input: { q: 2 }, call_log: [] }, { wait: false });
    await client.replay("old");
    const s = await client.run({ q: 1 });
    await s.replay();
    assert.deepEqual(srv.hits.map((h) => [h.url, h.body]), [
      ["/sessions", { input: { q: 1 }, replay_from: [RECORD] }],
      ["/sessions", { input: { q: 2 }, replay_from: [], wait: false }],
      ["/sessions/old/replay", {}],
      ["/sessions", { input: { q: 1 } }],
      ["/sessions/n4/checkpoint", null],
      ["/sessions", { input: { q: 1 }, replay_from: [RECORD] }],
    ]);
    await assert.rejects(() => client.replay(42), TypeError);
  } finally { await srv.close(); }
});

test("signal: a resumed Session or a queued signal; errors keep their status", async () => {
  const answers = [[200, { id: "s", status: "completed", output: { d: 1 } }],
    [202, { id: "s", status: "queued", name: "steer", delivery_seq: 7 }],
    [200, { id: "s", status: "delivered_live", name: "steer", delivery_seq: 8 }],
    [409, { error: "run is terminal" }]];
  const srv = await scripted((req, hits) => answers[hits.length - 1]);
  try {
    const client = new AgentClient(srv.url, { retries: 0 });
    const done = await client.signal("s", { name: "review", payload: { ok: 1 }, from: { kind: "human" } });
    assert.ok(done instanceof Session && !isSignalQueued(done));
    const queued = await client.signal("s", { name: "steer" });
    assert.ok(isSignalQueued(queued));
    assert.deepEqual(queued, { id: "s", status: "queued", name: "steer", delivery_seq: 7 });
    assert.ok(isSignalQueued(await client.signal("s", { name: "steer" })));
    const err = await client.signal("s", { name: "review" }).catch((e) => e);
    assert.ok(err instanceof HttpError && err instanceof AgentClientError);
    assert.deepEqual([err.status, err.detail, err.method, err.path], [409, "run is terminal", "POST", "/sessions/s/signal"]);
    assert.deepEqual(srv.hits.slice(0, 2).map((h) => h.body), [
      { name: "review", payload: { ok: 1 }, from: { kind: "human" } }, { name: "steer", payload: null, from: null }]);
  } finally { await srv.close(); }
});

test("getSnapshotManifest unwraps the manifest", async () => {
  const srv = await scripted(() => [200, { id: "s", run_id: "r-1", snapshot_manifest: MANIFEST }]);
  try {
    assert.deepEqual(await new AgentClient(srv.url).getSnapshotManifest("s"), MANIFEST);
    assert.equal(srv.hits[0].url, "/sessions/s/snapshot");
  } finally { await srv.close(); }
});

test("errors: AgentClientError is ChidoriError; timeouts and refusals say which request", async () => {
  assert.equal(AgentClientError, ChidoriError);
  const srv = await scripted(() => null);
  try {
    const err = await new AgentClient(srv.url, { timeoutMs: 100, retries: 0 }).run({ q: 1 }).catch((e) => e);
    assert.ok(err instanceof TimeoutError && err instanceof AgentClientError, String(err));
    assert.deepEqual([err.method, err.path, err.timeoutMs], ["POST", "/sessions", 100]);
  } finally { await srv.close(); }
  const refused = await new AgentClient("http://127.0.0.1:1", { retries: 0, timeoutMs: 2000 }).health().catch((e) => e);
  assert.ok(refused instanceof ConnectionError && refused instanceof AgentClientError, String(refused));
  assert.deepEqual([refused.method, refused.path], ["GET", "/health"]);
});

test("an explicit Authorization header wins over apiKey", async () => {
  const srv = await scripted(() => [200, { status: "ok" }]);
  try {
    await new AgentClient(srv.url, { apiKey: "ignored", headers: { Authorization: "Bearer winner" } }).health();
    await new AgentClient(srv.url, { apiKey: "k" }).health();
    assert.deepEqual(srv.hits.map((h) => h.headers.authorization), ["Bearer winner", "Bearer k"]);
  } finally { await srv.close(); }
});

test("events carry their payload's fields, as the original's did", () => {
  const done = typedEvent({ event: "done", data: '{"id":"s","status":"completed","output":{"v":1}}', id: "" });
  assert.deepEqual([done.type, done.id, done.status, done.output], ["done", "s", "completed", { v: 1 }]);
  const paused = typedEvent({ event: "paused", data: '{"status":"paused","pending_seq":2}', id: "9" });
  assert.deepEqual([paused.id, paused.pending_seq], ["9", 2]);
  const delta = typedEvent({ event: "prompt_delta", data: '{"stream_id":"p","seq":1,"delta":"fo"}', id: "" });
  assert.deepEqual([delta.delta, delta.stream_id, delta.seq], ["fo", "p", 1]);
  const call = typedEvent({ event: "call", data: '{"seq":1,"function":"log"}', id: "" });
  assert.deepEqual(Object.keys(call).sort(), ["data", "record", "type"]);
  const odd = typedEvent({ event: "done", data: '{"__proto__":{"polluted":true},"status":"failed"}', id: "" });
  assert.equal(odd.polluted, undefined);
  assert.equal(Object.getPrototypeOf(odd), Object.prototype);
});

test("run() fills in the input when the view leaves it out", async () => {
  const srv = await scripted(() => [201, { id: "r", status: "completed" }]);
  try {
    const client = new AgentClient(srv.url);
    assert.deepEqual((await client.run({ q: 1 })).input, { q: 1 });
    assert.deepEqual((await client.replay(new Checkpoint("x", { q: 2 }, []))).input, { q: 2 });
  } finally { await srv.close(); }
});

test("the package's chidori and run are inert outside the runtime", async () => {
  const { chidori, run } = await import("../index.js");
  assert.throws(() => chidori.prompt, /only available inside the chidori runtime/);
  assert.throws(() => run(async () => 1), /only available inside the chidori runtime.*chidori:agent/);
});
