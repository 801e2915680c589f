//! mode: eval
//! env: CHIDORI_JS_DEADLINE_MS=1000
//! env: CHIDORI_JS_MEM_CAP_MB=1024
//! exit: 1
//! stderr: deadline
//! max-seconds: 4
// Number parsing of a huge digit string is charged per byte.
const d = "9".repeat(2 ** 24);
for (;;) parseFloat(d);
