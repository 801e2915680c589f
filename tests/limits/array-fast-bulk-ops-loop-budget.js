//! mode: eval
//! env: CHIDORI_JS_OP_BUDGET=50000000
//! exit: 1
//! stderr: CPU budget
//! max-seconds: 10
// reverse and copyWithin on a fast (dense) array of 8M elements ran in one tick each.
const a = new Array(1 << 23).fill(0);
for (;;) { a.reverse(); a.copyWithin(1, 0); }
