//! mode: eval
//! env: CHIDORI_JS_OP_BUDGET=20000000
//! env: CHIDORI_JS_MEM_CAP_MB=1024
//! exit: 1
//! stderr: CPU budget
//! max-seconds: 6
// The CPU budget counts linear BigInt work (shift, xor) per limb, not one tick per call.
const a = (1n << 1000000n) - 1n;
for (;;) (a << 7n) ^ a;
