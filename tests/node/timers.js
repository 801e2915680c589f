//! stdout-contains: "waited": 1500
// node:timers and node:timers/promises run on the virtual clock; unavailable modules throw on use.
import { setTimeout as sleep } from "node:timers/promises";
import timers from "timers";
import * as cp from "node:child_process";
export async function agent() {
  const t0 = Date.now();
  await sleep(1500);
  const waited = Date.now() - t0;
  let err;
  try { cp.spawn("ls"); } catch (e) { err = e.code; }
  const order = [];
  await new Promise((resolve) => {
    timers.setTimeout(() => order.push("timeout"), 0);
    setImmediate(() => { order.push("immediate"); });
    timers.setTimeout(resolve, 5);
  });
  return { waited, err, order };
}
