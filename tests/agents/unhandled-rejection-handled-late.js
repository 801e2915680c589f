//! stdout: "caught boom, then 2 via process.on"
// A rejection is unhandled only once the job queue has drained: a handler attached a few
// microtasks later takes it. A process.on("unhandledRejection") listener receives the ones left
// (reason, promise) instead of the run failing; removing it restores the failure (checked by
// unhandled-rejection.js).
export default async () => {
  const early = Promise.reject(new Error("boom"));
  let caught = "";
  await null;
  await null;
  await early.catch((e) => { caught = "caught " + e.message; });
  const seen = [];
  const listener = (reason, promise) => seen.push(reason + (promise instanceof Promise ? "" : "?"));
  process.on("unhandledRejection", listener);
  Promise.reject(1);
  Promise.reject(2);
  await new Promise((r) => setTimeout(r, 10));
  process.off("unhandledRejection", listener);
  return caught + ", then " + seen.length + " via process.on";
};
