// sse.test.mjs — the SSE parser against the format's edge cases (no server involved).
import { test } from "node:test";
import assert from "node:assert/strict";
import { SseParser, typedEvent } from "../index.js";

const enc = new TextEncoder();

function parseAll(chunks) {
  const p = new SseParser();
  const out = [];
  for (const c of chunks) out.push(...p.push(typeof c === "string" ? enc.encode(c) : c));
  out.push(...p.end());
  return out;
}

test("event names, multi-line data, comments", () => {
  const evs = parseAll([": keep-alive\n\nevent: call\ndata: {\"seq\":1,\ndata:  \"x\":2}\n\n: ping\nevent: done\ndata: {}\n\n"]);
  assert.deepEqual(evs, [
    { event: "call", data: '{"seq":1,\n "x":2}', id: "" },
    { event: "done", data: "{}", id: "" },
  ]);
  assert.deepEqual(JSON.parse(evs[0].data), { seq: 1, x: 2 });
});

test("every line ending, split anywhere, including CR|LF across chunks", () => {
  const text = "event: a\r\ndata: 1\r\n\r\nevent: b\rdata: 2\r\revent: c\ndata: 3\n\n";
  const whole = parseAll([text]);
  assert.deepEqual(whole.map((e) => [e.event, e.data]), [["a", "1"], ["b", "2"], ["c", "3"]]);
  for (let i = 1; i < text.length; i++) {
    assert.deepEqual(parseAll([text.slice(0, i), text.slice(i)]), whole, `split at ${i}`);
  }
  // one byte at a time
  assert.deepEqual(parseAll(text.split("")), whole);
});

test("a multi-byte character split between chunks", () => {
  const bytes = enc.encode("data: héllo ✓\n\n");
  const out = [];
  const p = new SseParser();
  for (const b of bytes) out.push(...p.push(new Uint8Array([b])));
  assert.deepEqual(out, [{ event: "message", data: "héllo ✓", id: "" }]);
});

test("field rules: one leading space, no colon, unknown fields, id, retry, BOM", () => {
  const evs = parseAll(["\ufeffdata:no-space\ndata:  two\ndata\nfoo: bar\nid: 7\nretry: 10x\n\n"]);
  assert.deepEqual(evs, [{ event: "message", data: "no-space\n two\n", id: "7" }]);
  const p = new SseParser();
  p.push("retry: 1500\nid: a\0b\n\n");
  assert.equal(p.retry, 1500);
  assert.equal(p.lastEventId, "", "an id with NUL is ignored");
});

test("an event without data is dropped; a trailing event without blank line is discarded", () => {
  assert.deepEqual(parseAll(["event: nothing\n\ndata: late"]), []);
});

test("typed events", () => {
  const call = typedEvent({ event: "call", data: '{"seq":0,"function":"log"}', id: "" });
  assert.equal(call.type, "call");
  assert.deepEqual(call.record, { seq: 0, function: "log" });
  const delta = typedEvent({ event: "prompt_delta", data: '{"delta":"he"}', id: "3" });
  assert.equal(delta.delta, "he");
  assert.equal(delta.id, "3");
  const done = typedEvent({ event: "done", data: '{"id":"s","status":"completed"}', id: "" });
  assert.equal(done.status, "completed");
  const text = typedEvent({ event: "other", data: "not json", id: "" });
  assert.deepEqual(text, { type: "other", data: "not json" });
});
