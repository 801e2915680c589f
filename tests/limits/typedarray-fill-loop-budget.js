//! mode: eval
//! env: CHIDORI_JS_OP_BUDGET=200000000
//! exit: 1
//! stderr: CPU budget
//! max-seconds: 10
// The same loop under the CPU budget: a fill is charged by its size, so the budget runs out.
const a = new Float64Array(1 << 23);
for (let i = 0; ; i++) a.fill(i);
