//! mode: eval
//! env: CHIDORI_JS_OP_BUDGET=20000000
//! exit: 1
//! stderr: CPU budget exhausted
//! max-seconds: 5
// `return(p)` on a finished async generator resolves `p` at once, which reads `p.constructor`: a
// getter that does most of the work, so the budget's stop lands in it on every poll. QuickJS turns
// an error there into a rejected promise (the spec's rule for a poisoned constructor); before
// patch 0013 it did so with the stop too, which was lost, and this synchronous loop never ended.
async function* g() {}
const p = Promise.resolve(1);
Object.defineProperty(p, "constructor", { get() { for (let i = 0; i < 1e6; i++); return Promise; } });
for (;;) { const it = g(); it.next(); it.return(p); }
