//! mode: eval
//! env: CHIDORI_JS_OP_BUDGET=20000000
//! exit: 1
//! stderr: CPU budget exhausted
//! max-seconds: 5
// `next()` on a finished async generator resolves its promise with `{value, done}` at once, which
// reads `then` on that object: a getter on Object.prototype is guest code, and here it does most
// of the work, so the budget's stop lands in it on every poll. Before patch 0013 the failed
// resolution was ignored and the stop lost: this synchronous loop never ended.
Object.defineProperty(Object.prototype, "then", { get() { for (let i = 0; i < 1e6; i++); return undefined; } });
async function* g() {}
const it = g();
for (;;) it.next();
