//! env: CHIDORI_JS_OP_BUDGET=20000000
//! exit: 1
//! stderr: CPU budget exhausted: the run used its 20000000 ticks (CHIDORI_JS_OP_BUDGET)
// An output whose getter never returns: the op budget ends it.
export default async () => ({ get x() { for (;;); } });
