//! mode: eval
//! env: CHIDORI_JS_DEADLINE_MS=1000
//! env: CHIDORI_JS_MEM_CAP_MB=1024
//! exit: 1
//! stderr: deadline
//! max-seconds: 4
// Decimal BigInt parsing is quadratic in the digits.
const d = "7".repeat(200000);
for (;;) BigInt(d);
