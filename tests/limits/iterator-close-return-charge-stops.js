//! mode: eval
//! env: CHIDORI_JS_OP_BUDGET=20000000
//! exit: 1
//! stderr: CPU budget exhausted
//! max-seconds: 5
// A `for…of` left by a throw closes its iterator: `return()` is called and, as the spec says, an
// error from it is dropped in favour of the one being thrown. When `return()` does most of the
// loop's work, the budget's stop lands inside it on every poll; before patch 0013 that stop was
// the error dropped, the guest's `throw 1` was caught instead, and this loop never ended.
const it = {
  [Symbol.iterator]() { return this; },
  next() { return { value: 1, done: false }; },
  return() { for (let i = 0; i < 1e6; i++); return {}; },
};
for (;;) { try { for (const x of it) throw x; } catch (e) {} }
