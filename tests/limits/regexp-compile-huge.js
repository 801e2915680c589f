//! mode: eval
//! env: CHIDORI_JS_DEADLINE_MS=1000
//! env: CHIDORI_JS_MEM_CAP_MB=1024
//! exit: 1
//! stderr: deadline
//! max-seconds: 4
// Compiling a huge pattern is charged per pattern byte.
const p = "(?:a|b)".repeat(2 ** 17);
for (;;) new RegExp(p);
