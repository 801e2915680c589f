/* node/timers.js — node:timers and node:timers/promises on the run's virtual clock (the prelude's
 * timers: nothing sleeps, a timer fires when the run has nothing else to do, in (deadline, id)
 * order). setImmediate is a 0 ms timer. */
(function (require, natives, name) {
  "use strict";
  const P = natives.primordials; // builtins captured before guest code (docs/primordials.md)
  const { ObjectFreeze, PromiseCtor, PromiseOwn, rec } = P;
  const setTimeout = (fn, ms, ...args) => natives.addTimer(fn, ms, args, false);
  const setInterval = (fn, ms, ...args) => natives.addTimer(fn, ms, args, true);
  const setImmediate = (fn, ...args) => natives.addTimer(fn, 0, args, false);
  const clear = (id) => natives.clearTimer(id);

  const abortError = (signal) => require("internal/abort").abortError(signal);

  // A promise that settles after ms of virtual time, or rejects when options.signal aborts.
  function delayed(ms, value, options) {
    const signal = options && options.signal;
    return PromiseOwn(new PromiseCtor((resolve, reject) => {
      if (signal && signal.aborted) return reject(abortError(signal));
      const id = natives.addTimer(() => resolve(value), ms, P.list(), false);
      if (signal) signal.addEventListener("abort", () => { clear(id); reject(abortError(signal)); }, { __proto__: null, once: true });
    }));
  }

  async function* interval(ms, value, options) {
    for (;;) yield await delayed(ms, value, options);
  }

  const promises = ObjectFreeze({
    setTimeout: (ms, value, options) => delayed(ms, value, options),
    setImmediate: (value, options) => delayed(0, value, options),
    setInterval: interval,
    scheduler: ObjectFreeze({ wait: (ms, options) => delayed(ms, undefined, options), yield: () => delayed(0) }),
  });

  return ObjectFreeze({
    setTimeout, setInterval, setImmediate,
    clearTimeout: clear, clearInterval: clear, clearImmediate: clear,
    promises,
  });
})
