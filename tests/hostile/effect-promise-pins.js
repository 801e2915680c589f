//! stdout: "pinned"
//! max-seconds: 5
// An effect's promise carries its own `constructor` (the intrinsic Promise) and `then` (the
// original), writable and configurable, as the prelude's PromiseResolve makes them: a guest that
// replaces Promise.prototype.then and .constructor still awaits its effects without either being
// called, and sees the originals on the promise.
export default async (input, chidori) => {
  const realThen = Promise.prototype.then;
  const RealPromise = Promise;
  let replacedCalled = false;
  Promise.prototype.then = function (f, r) { replacedCalled = true; return realThen.call(this, f, r); };
  Promise.prototype.constructor = function Fake() { replacedCalled = true; };
  const p = chidori.mark("x");
  const names = Object.getOwnPropertyNames(p).join(",");
  const d = Object.getOwnPropertyDescriptor(p, "then"), c = Object.getOwnPropertyDescriptor(p, "constructor");
  const value = await p;
  Promise.prototype.then = realThen;
  Promise.prototype.constructor = RealPromise;
  const ok = names === "constructor,then" && d.value === realThen && c.value === RealPromise &&
    d.writable && d.configurable && !d.enumerable && c.writable && c.configurable && !c.enumerable &&
    value === null && !replacedCalled && Object.getPrototypeOf(p) === RealPromise.prototype;
  return ok ? "pinned" : { names, replacedCalled, value };
};
