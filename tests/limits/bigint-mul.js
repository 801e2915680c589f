//! mode: eval
//! env: CHIDORI_JS_DEADLINE_MS=1000
//! env: CHIDORI_JS_MEM_CAP_MB=1024
//! exit: 1
//! stderr: deadline
//! max-seconds: 4
// A 500k-bit multiply costs ~one tick per 8 limb products, not one tick per call.
const a = (1n << 500000n) - 1n, b = a / 7n;
for (;;) a * b;
