//! mode: eval
//! env: CHIDORI_JS_OP_BUDGET=20000000
//! env: CHIDORI_JS_MEM_CAP_MB=1024
//! exit: 1
//! stderr: CPU budget
//! max-seconds: 6
// The CPU budget counts a BigInt multiply's work, not one tick per call.
const a = (1n << 500000n) - 1n, b = a / 7n;
for (;;) a * b;
