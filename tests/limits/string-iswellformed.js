//! mode: eval
//! env: CHIDORI_JS_DEADLINE_MS=1000
//! env: CHIDORI_JS_MEM_CAP_MB=1024
//! exit: 1
//! stderr: deadline
//! max-seconds: 4
// isWellFormed() scans the whole string: charged per byte.
const s = "\u0101".repeat(2 ** 23);
for (;;) s.isWellFormed();
