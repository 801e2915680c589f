//! stdout-contains: "isPromise": true
//! stdout-contains: "badFields": "rejected"
//! stderr: [log] plain
import { run, chidori as imported } from "chidori:agent";
run(async (input, chidori) => {
  const p = chidori.log("plain");
  const isPromise = p instanceof Promise;
  await p;
  let badFields = "resolved";
  await chidori.log("big", { n: 1n }).catch(() => { badFields = "rejected"; });
  return { isPromise, same: imported === chidori, badFields, frozen: Object.isFrozen(chidori) };
});
