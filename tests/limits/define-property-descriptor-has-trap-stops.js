//! mode: eval
//! env: CHIDORI_JS_OP_BUDGET=20000000
//! exit: 1
//! stderr: CPU budget exhausted
//! max-seconds: 5
// Object.defineProperty reads its descriptor field by field, asking `has` first; on a Proxy that
// is guest code, and here it does most of the work, so the budget's stop lands in it on every poll.
// QuickJS took the failed `has` (-1) for "present" and went on: the descriptor's getter and value
// together then raised a catchable TypeError over the stop. Before patch 0013 this loop never ended.
const desc = new Proxy({}, {
  has() { for (let i = 0; i < 1e6; i++); return true; },
  get(t, k) { return k === "value" ? 1 : undefined; },
});
for (;;) { try { Object.defineProperty({}, "x", desc); } catch (e) {} }
