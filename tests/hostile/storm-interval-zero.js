//! env: CHIDORI_JS_OP_BUDGET=20000000
//! exit: 1
//! stderr: CPU budget exhausted: the run used its 20000000 ticks
// An interval that never stops: virtual time runs forward until the op budget is spent.
export default async () => new Promise(() => { setInterval(() => {}, 0); });
