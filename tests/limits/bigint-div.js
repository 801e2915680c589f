//! mode: eval
//! env: CHIDORI_JS_DEADLINE_MS=1000
//! env: CHIDORI_JS_MEM_CAP_MB=1024
//! exit: 1
//! stderr: deadline
//! max-seconds: 4
// Long division is O(n*m) limb products: charged, not one tick per call.
const a = (1n << 1000000n) - 1n, b = (1n << 500000n) - 3n;
for (;;) a % b;
