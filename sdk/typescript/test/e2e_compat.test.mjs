// e2e_compat.test.mjs — the original SDK's interface against a real `chidori serve` (server.mjs):
// Session accessors through a pause and resume, checkpoint() objects, and an input the agent's
// inputSchema rejects (400 with the stored session). The routes still being added (snapshot,
// replay_from) are in e2e_snapshot.test.mjs and e2e_replay.test.mjs.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { AgentClient, AgentClientError, Checkpoint, HttpError, Session } from "../index.js";
import { haveBinary, binary, startServer } from "./server.mjs";

const skip = !haveBinary && `${binary} is missing (make build)`;
let srv, client;

before(async () => {
  if (skip) return;
  srv = await startServer();
  client = new AgentClient(srv.url, { apiKey: srv.apiKey, timeoutMs: 60000 });
});
after(async () => {
  if (!srv) return;
  await srv.stop();
  assert.doesNotMatch(srv.stderr(), /ERROR: (Address|Leak)Sanitizer|runtime error:/);
});

test("pause and resume through the original accessors", { skip }, async () => {
  const paused = await client.run({ mode: "ask" });
  assert.ok(paused instanceof Session);
  assert.deepEqual([paused.status, paused.pendingPrompt, paused.ok], ["paused", "Your name?", false]);
  assert.equal(paused.runId, paused.run_id);
  const done = await client.resume(paused.id, "Ada");
  assert.ok(done.ok);
  assert.deepEqual(done.output, { greeting: "Hello, Ada!", n: 2 });
});

test("checkpoint() holds the call log and input; it survives JSON", { skip }, async () => {
  const s = await client.run({ name: "Ola" });
  const cp = await s.checkpoint();
  assert.ok(cp instanceof Checkpoint);
  assert.equal(cp.sessionId, s.id);
  assert.deepEqual(cp.input, { name: "Ola" });
  assert.deepEqual(cp.callLog.map((r) => r.function), ["log", "mark", "step", "mark"]);
  assert.deepEqual(s.callLog, cp.callLog);
  const back = Checkpoint.fromJSON(JSON.parse(JSON.stringify(cp)));
  assert.deepEqual(back.callLog, cp.callLog);
});

test("an input the agent's inputSchema rejects is a 400 carrying the stored session", { skip }, async () => {
  const err = await client.run({ name: 5, extra: true }).catch((e) => e);
  assert.ok(err instanceof HttpError && err instanceof AgentClientError, String(err));
  assert.equal(err.status, 400);
  assert.match(err.detail, /^InputValidationError: invalid input:\n/);
  assert.match(err.detail, /\n {2}- name: expected string, got integer/);
  assert.match(err.detail, /\n {2}- input\.extra: unexpected property/);
  const stored = await client.getSession(err.body.session.id);
  assert.deepEqual([stored.status, stored.error, stored.callCount], ["failed", err.detail, 0]);
});
