//! mode: eval
//! env: CHIDORI_JS_OP_BUDGET=20000000
//! exit: 1
//! stderr: CPU budget exhausted
//! max-seconds: 5
// An async function that returns a thenable resolves its promise with it there and then, which
// reads `then`: here a getter that does most of the work, so the budget's stop lands in it on
// every poll. Before patch 0013 the failed resolution was ignored, the call returned its promise
// normally, the stop was lost and this synchronous loop never ended.
const t = { get then() { for (let i = 0; i < 1e6; i++); return undefined; } };
async function f() { return t; }
for (;;) f();
