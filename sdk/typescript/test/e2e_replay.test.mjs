// e2e_replay.test.mjs — replay(checkpoint) and session.replay() against a real `chidori serve`:
// the recorded calls answer from the checkpoint's log (POST /sessions with replay_from), calls
// past its end run live. Needs `replay_from` on POST /sessions (docs/http-api.md); kept apart
// from the other end-to-end tests for that reason.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { AgentClient, Checkpoint } from "../index.js";
import { haveBinary, binary, startServer } from "./server.mjs";

const skip = !haveBinary && `${binary} is missing (make build)`;
let srv, client;

before(async () => {
  if (skip) return;
  srv = await startServer();
  client = new AgentClient(srv.url, { apiKey: srv.apiKey, timeoutMs: 60000 });
});
after(async () => { if (srv) await srv.stop(); });

test("a checkpoint saved as JSON replays to the same output", { skip }, async () => {
  const s = await client.run({ name: "Replay" });
  const cp = Checkpoint.fromJSON(JSON.parse(JSON.stringify(await s.checkpoint())));
  const r = await client.replay(cp);
  assert.notEqual(r.id, s.id);
  assert.ok(r.ok, JSON.stringify(r));
  assert.deepEqual(r.output, s.output);
  assert.deepEqual((await client.getCheckpoint(r.id)).call_log, cp.callLog);
  const again = await s.replay();
  assert.ok(again.ok);
  assert.deepEqual(again.output, s.output);
});

test("a cut log answers what it holds and the rest runs live", { skip }, async () => {
  const s = await client.run({ name: "Half" });
  const cp = await s.checkpoint();
  const r = await client.replay(new Checkpoint(cp.sessionId, cp.input, cp.callLog.slice(0, 2)));
  assert.ok(r.ok, JSON.stringify(r));
  assert.deepEqual(r.output, s.output);
  assert.deepEqual((await client.getCheckpoint(r.id)).call_log.map((x) => x.function), cp.callLog.map((x) => x.function));
});
