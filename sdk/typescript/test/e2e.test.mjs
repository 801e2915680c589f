// e2e.test.mjs — the client against a real `chidori serve` (see server.mjs): every route, both
// waiting states (input → paused → resume; supervised → awaitingapproval → approve), streams.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { AgentClient, HttpError } from "../index.js";
import { serverForTests } from "./server.mjs";

const t = serverForTests((srv) => new AgentClient(srv.url, { apiKey: srv.apiKey, timeoutMs: 60000 }));
const skip = t.skip;

test("health needs no key; everything else does", { skip }, async () => {
  assert.deepEqual(await new AgentClient(t.srv.url).health(), { status: "ok" });
  const err = await new AgentClient(t.srv.url, { retries: 0 }).listSessions().catch((e) => e);
  assert.ok(err instanceof HttpError);
  assert.equal(err.status, 401);
  assert.match(err.error, /bearer/);
});

test("run → completed; getSession, listSessions, getCheckpoint agree", { skip }, async () => {
  const s = await t.client.run({ name: "Ada" }, { wait: true });
  assert.equal(s.status, "completed");
  assert.deepEqual(s.output, { greeting: "Hello, Ada!", n: 2 });
  assert.equal(s.pending_approval, null);
  assert.deepEqual(await t.client.getSession(s.id), s);
  const list = await t.client.listSessions();
  assert.ok(list.some((x) => x.id === s.id && x.status === "completed"));
  const cp = await t.client.getCheckpoint(s.id);
  assert.deepEqual(cp.call_log.map((r) => r.function), ["log", "mark", "step", "mark"]);
  assert.equal(cp.call_log.length, s.call_count);
});

test("input: run → paused → resume → completed", { skip }, async () => {
  const s = await t.client.run({ mode: "ask" }, { sessionId: "ts-ask-1" });
  assert.equal(s.id, "ts-ask-1");
  assert.equal(s.status, "paused");
  assert.equal(s.pending_prompt, "Your name?");
  const done = await t.client.resume(s.id, "Grace", { wait: true });
  assert.equal(done.status, "completed");
  assert.deepEqual(done.output, { greeting: "Hello, Grace!", n: 2 });
  const err = await t.client.resume(s.id, "again").catch((e) => e);
  assert.ok(err instanceof HttpError && err.status === 409, String(err));
});

test("approval: supervised → awaitingapproval → approve → completed", { skip }, async () => {
  const s = await t.client.run({ mode: "write" }, { policyProfile: "supervised" });
  assert.equal(s.status, "awaitingapproval");
  assert.equal(s.policy_profile, "supervised");
  assert.equal(s.pending_approval.target, "workspace:write");
  assert.equal(s.pending_approval.args.path, "out.txt");
  assert.ok(!existsSync(join(t.srv.dir, "out.txt")), "nothing written before the approval");
  const done = await t.client.approve(s.id, "allow", { wait: true });
  assert.equal(done.status, "completed");
  assert.deepEqual(done.output, { wrote: "out.txt", bytes: 21 });
  assert.equal(readFileSync(join(t.srv.dir, "out.txt"), "utf8"), "hello from the agent\n");
});

test("approval denied → failed with the denial", { skip }, async () => {
  const s = await t.client.run({ mode: "write" }, { policyProfile: "supervised" });
  const denied = await t.client.approve(s.id, "deny", { wait: true });
  assert.equal(denied.status, "failed");
  assert.match(denied.error, /denied/);
});

test("stream yields every record, then done", { skip }, async () => {
  const events = [];
  for await (const ev of t.client.stream({ name: "Lin" })) events.push(ev);
  const last = events.at(-1);
  assert.equal(last.type, "done");
  assert.equal(last.status, "completed");
  assert.deepEqual(last.data.output, { greeting: "Hello, Lin!", n: 2 });
  const calls = events.filter((e) => e.type === "call");
  assert.equal(calls.length, events.length - 1);
  const cp = await t.client.getCheckpoint(last.data.id);
  assert.deepEqual(calls.map((e) => e.record), cp.call_log);
  // re-attaching to the settled session gives the same records and done again
  const again = [];
  for await (const ev of t.client.attach(last.data.id)) again.push(ev);
  assert.deepEqual(again.map((e) => e.record ?? e.type), [...cp.call_log, "done"]);
});

test("a stream that pauses says so, then done", { skip }, async () => {
  const types = [];
  let id;
  for await (const ev of t.client.stream({ mode: "ask" })) {
    types.push(ev.type);
    if (ev.type === "done") { id = ev.data.id; assert.equal(ev.status, "paused"); }
  }
  assert.deepEqual(types, ["call", "call", "call", "paused", "done"]);
  const cancelled = await t.client.cancel(id);
  assert.equal(cancelled.status, "cancelled");
  assert.equal((await t.client.getSession(id)).status, "cancelled");
});

test("wait: false answers at once; waitFor follows the run to its end", { skip }, async () => {
  const s = await t.client.run({ mode: "ask" }, { wait: false });
  assert.equal(s.status, "running");
  const settled = await t.client.waitFor(s.id);
  assert.equal(settled.status, "paused");
  const r = await t.client.resume(s.id, "Lee", { wait: false });
  assert.equal(r.status, "running");
  const done = await t.client.run({ name: "x" }, { wait: true });
  assert.equal(done.status, "completed");
  assert.equal((await t.client.waitFor(s.id)).output.greeting, "Hello, Lee!");
});

test("replay re-runs a session as a new one with the same output", { skip }, async () => {
  const s = await t.client.run({ name: "Kay" });
  const r = await t.client.replay(s.id, { wait: true });
  assert.notEqual(r.id, s.id);
  assert.equal(r.status, "completed");
  assert.deepEqual(r.output, s.output);
});

test("errors: unknown profile 400, unknown session 404, failing agent", { skip }, async () => {
  const e1 = await t.client.run({}, { policyProfile: "nope" }).catch((e) => e);
  assert.ok(e1 instanceof HttpError && e1.status === 400, String(e1));
  assert.match(e1.error, /policy_profile/);
  const e2 = await t.client.getSession("no-such-session").catch((e) => e);
  assert.ok(e2 instanceof HttpError && e2.status === 404, String(e2));
  const f = await t.client.run({ mode: "fail" });
  assert.equal(f.status, "failed");
  assert.match(f.error, /asked to fail/);
});
