// e2e_compat.test.mjs — the original SDK's interface against a real `chidori serve` (server.mjs):
// Session accessors through a pause and resume, checkpoint() objects, an input the agent's
// inputSchema rejects (400 with the stored session), getSnapshotManifest() and the manifest in a
// checkpoint, and replay(checkpoint): the recorded calls answer from the checkpoint's log (POST
// /sessions with replay_from), calls past its end run live.
import { test } from "node:test";
import assert from "node:assert/strict";
import { AgentClient, AgentClientError, Checkpoint, HttpError, Session, isSignalQueued } from "../index.js";
import { serverForTests } from "./server.mjs";

const t = serverForTests((srv) => new AgentClient(srv.url, { apiKey: srv.apiKey, timeoutMs: 60000 }));
const skip = t.skip;

test("pause and resume through the original accessors", { skip }, async () => {
  const paused = await t.client.run({ mode: "ask" });
  assert.ok(paused instanceof Session);
  assert.deepEqual([paused.status, paused.pendingPrompt, paused.ok], ["paused", "Your name?", false]);
  assert.equal(paused.runId, paused.run_id);
  const done = await t.client.resume(paused.id, "Ada");
  assert.ok(done.ok);
  assert.deepEqual(done.output, { greeting: "Hello, Ada!", n: 2 });
});

test("checkpoint() holds the call log and input; it survives JSON", { skip }, async () => {
  const s = await t.client.run({ name: "Ola" });
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
  const err = await t.client.run({ name: 5, extra: true }).catch((e) => e);
  assert.ok(err instanceof HttpError && err instanceof AgentClientError, String(err));
  assert.equal(err.status, 400);
  assert.match(err.detail, /^InputValidationError: invalid input:\n/);
  assert.match(err.detail, /\n {2}- name: expected string, got integer/);
  assert.match(err.detail, /\n {2}- input\.extra: unexpected property/);
  const stored = await t.client.getSession(err.body.session.id);
  assert.deepEqual([stored.status, stored.error, stored.callCount], ["failed", err.detail, 0]);
});

test("the manifest by its route and in the checkpoint", { skip }, async () => {
  const s = await t.client.run({ name: "Manifest" });
  const m = await t.client.getSnapshotManifest(s.id);
  for (const key of ["run_id", "abi", "policy", "entry", "snapshot_file"]) assert.ok(key in m, key);
  assert.equal(m.run_id, s.runId);
  assert.equal(m.snapshot_file, "runtime.snapshot");
  assert.equal(typeof m.abi.engine_fork, "string");
  const cp = await s.checkpoint();
  assert.equal(cp.snapshotManifest.run_id, s.runId);
  const err = await t.client.getSnapshotManifest("no-such-session").catch((e) => e);
  assert.ok(err instanceof HttpError && err.status === 404, String(err));
});

test("a checkpoint saved as JSON replays to the same output", { skip }, async () => {
  const s = await t.client.run({ name: "Replay" });
  const cp = Checkpoint.fromJSON(JSON.parse(JSON.stringify(await s.checkpoint())));
  const r = await t.client.replay(cp);
  assert.notEqual(r.id, s.id);
  assert.ok(r.ok, JSON.stringify(r));
  assert.deepEqual(r.output, s.output);
  assert.deepEqual((await t.client.getCheckpoint(r.id)).call_log, cp.callLog);
  const again = await s.replay();
  assert.ok(again.ok);
  assert.deepEqual(again.output, s.output);
});

test("a cut log answers what it holds and the rest runs live", { skip }, async () => {
  const s = await t.client.run({ name: "Half" });
  const cp = await s.checkpoint();
  const r = await t.client.replay(new Checkpoint(cp.sessionId, cp.input, cp.callLog.slice(0, 2)));
  assert.ok(r.ok, JSON.stringify(r));
  assert.deepEqual(r.output, s.output);
  assert.deepEqual((await t.client.getCheckpoint(r.id)).call_log.map((x) => x.function), cp.callLog.map((x) => x.function));
});

test("signal: sent before the run listens it waits queued; sent to the pause it resumes; a finished session's 409", { skip }, async () => {
  // before the listen point: the session waits on an input, the signal is queued for later
  const asked = await t.client.run({ mode: "ask" });
  const queued = await t.client.signal(asked.id, { name: "review", payload: { decision: "early" } });
  assert.ok(isSignalQueued(queued), JSON.stringify(queued));
  assert.deepEqual([queued.status, queued.name, queued.delivery_seq], ["queued", "review", 1]);
  // at the listen point: the pause and its fields, then the signal resumes it
  const paused = await t.client.run({ mode: "signal" });
  assert.deepEqual([paused.status, paused.pendingPrompt], ["paused", null]);
  assert.deepEqual([paused.pendingSignalName, paused.pendingSignalNames, paused.pendingSignalDeadline], ["review", ["review"], null]);
  const done = await t.client.signal(paused.id, { name: "review", payload: { decision: "ship" }, from: { kind: "human", id: "ana" } });
  assert.ok(done instanceof Session && done.ok, JSON.stringify(done));
  assert.deepEqual(done.output, { decision: "ship", from: { kind: "human", id: "ana" }, n: 2 });
  const cp = await done.checkpoint();
  const rec = cp.callLog.find((r) => r.function === "signal");
  assert.deepEqual([rec.args, rec.result.payload], [{ name: "review" }, { decision: "ship" }]);
  const err = await t.client.signal(paused.id, { name: "review" }).catch((e) => e);
  assert.ok(err instanceof HttpError, String(err));
  assert.deepEqual([err.status, err.detail], [409, "session is Completed; cannot accept signals"]);
});
