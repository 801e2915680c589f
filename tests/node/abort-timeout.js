//! stdout: {
//! stdout:   "elapsed": 5000,
//! stdout:   "reason": "TimeoutError",
//! stdout:   "raced": "timeout",
//! stdout:   "any": "AbortError"
//! stdout: }
// AbortSignal.timeout runs on the run's virtual clock: it fires after exactly its delay of virtual
// time, races other timers deterministically, and composes with AbortSignal.any.
import { once } from "node:events";
import { setTimeout as sleep } from "node:timers/promises";

export async function agent() {
  const t0 = Date.now();
  const signal = AbortSignal.timeout(5000);
  await once(signal, "abort");
  const elapsed = Date.now() - t0;
  const raced = await Promise.race([
    sleep(200, "sleep"),
    new Promise((resolve) => AbortSignal.timeout(100).addEventListener("abort", () => resolve("timeout"))),
  ]);
  const ctl = new AbortController();
  const any = AbortSignal.any([ctl.signal, AbortSignal.timeout(1000)]);
  ctl.abort();
  return { elapsed, reason: signal.reason.name, raced, any: any.reason.name };
}
