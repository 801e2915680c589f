//! stdout-file: deviations.out
//! stderr: Uncaught exception in an event listener: Error: listener failed
// Where the shims intentionally differ from Node 20 (kept out of tests/node/oracle/):
// WHATWG windows-1252 for "latin1", passive listeners, structuredClone refusing event objects
// and transfers, QuickJS's buffer limit, what inspect cannot see (a WeakMap's entries: what a weak
// collection holds depends on the collector; a promise's state and an iterator's entries it now
// shows as Node does, pinned here next to it), assert.ok without source,
// POSIX path with cwd "/" (path.win32.resolve resolves against "\\" too), zero-filled allocUnsafe, no colour without a terminal, a
// throwing event listener reported instead of crashing the run.
import { kMaxLength, constants } from "node:buffer";
import { inspect, styleText } from "node:util";
import assert from "node:assert";
import path from "node:path";
import events from "node:events";

const attempt = (f) => {
  try { return { ok: f() }; } catch (e) { return { name: e.name, code: e.code, message: e.message }; }
};

export async function agent() {
  const out = {};
  // Node 20 decodes "latin1" as ISO-8859-1; the Encoding Standard maps 0x80..0x9F per windows-1252.
  out.windows1252 = Array.from(new TextDecoder("latin1").decode(Uint8Array.of(0x80, 0x81, 0x8a, 0x9f, 0xe9)), (c) => c.codePointAt(0));

  const et = new EventTarget();
  et.addEventListener("p", (e) => e.preventDefault(), { passive: true });
  const ev = new Event("p", { cancelable: true });
  out.passive = [et.dispatchEvent(ev), ev.defaultPrevented];

  const order = [];
  et.addEventListener("boom", () => { order.push("first"); throw new Error("listener failed"); });
  et.addEventListener("boom", () => order.push("second"));
  out.throwingListener = [et.dispatchEvent(new Event("boom")), order];

  out.cloneRefuses = [attempt(() => structuredClone(new EventTarget())), attempt(() => structuredClone(new AbortController())),
    attempt(() => structuredClone(new Event("x")))].map((r) => [r.name, r.message]);
  const ab = new ArrayBuffer(4);
  out.transfer = [attempt(() => structuredClone(ab, { transfer: [ab] })), ab.byteLength];

  out.bufferLimits = [kMaxLength, constants.MAX_LENGTH, constants.MAX_STRING_LENGTH,
    attempt(() => Buffer.alloc(2 ** 31)).code, attempt(() => Buffer.from({ length: 2 ** 40 })).code,
    attempt(() => Buffer.allocUnsafe(2 ** 32)).code];
  const unsafe = Buffer.allocUnsafe(64);
  out.allocUnsafeZeroed = unsafe.every((b) => b === 0);

  out.inspectOpaque = [inspect(Promise.resolve(1)), inspect(new Map([[1, 2]]).entries()), inspect(new WeakMap())];
  out.okWithoutSource = attempt(() => assert.ok(1 === 2)).message;
  out.path = [path.resolve("relative/file"), path.resolve(), path.win32.resolve("a", "b"), path.win32.sep];
  out.styleText = [styleText("red", "plain"), styleText("red", "styled", { validateStream: false })];
  out.eventsReExports = [typeof events.EventTarget, typeof events.Event];
  return out;
}
