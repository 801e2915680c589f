//! exit: 1
//! stderr: run failed: Error: boom in microtask
// An exception thrown by a queueMicrotask callback fails the run, as one thrown by a timer
// callback does (and as it ends a Node process); it is not swallowed as a rejection.
export default async () => {
  queueMicrotask(() => { throw new Error("boom in microtask"); });
  await new Promise((r) => setTimeout(r, 10));
  return "finished";
};
