// e2e_snapshot.test.mjs — getSnapshotManifest() and the manifest in a checkpoint, against a real
// `chidori serve`. Needs GET /sessions/{id}/snapshot and `snapshot_manifest` in /checkpoint
// (docs/http-api.md); kept apart from the other end-to-end tests for that reason.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { AgentClient, HttpError } from "../index.js";
import { haveBinary, binary, startServer } from "./server.mjs";

const skip = !haveBinary && `${binary} is missing (make build)`;
let srv, client;

before(async () => {
  if (skip) return;
  srv = await startServer();
  client = new AgentClient(srv.url, { apiKey: srv.apiKey, timeoutMs: 60000 });
});
after(async () => { if (srv) await srv.stop(); });

test("the manifest by its route and in the checkpoint", { skip }, async () => {
  const s = await client.run({ name: "Manifest" });
  const m = await client.getSnapshotManifest(s.id);
  for (const key of ["run_id", "abi", "policy", "entry", "snapshot_file"]) assert.ok(key in m, key);
  assert.equal(m.run_id, s.runId);
  assert.equal(m.snapshot_file, "runtime.snapshot");
  assert.equal(typeof m.abi.engine_fork, "string");
  const cp = await s.checkpoint();
  assert.equal(cp.snapshotManifest.run_id, s.runId);
  const err = await client.getSnapshotManifest("no-such-session").catch((e) => e);
  assert.ok(err instanceof HttpError && err.status === 404, String(err));
});
