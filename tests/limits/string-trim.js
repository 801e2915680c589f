//! mode: eval
//! env: CHIDORI_JS_DEADLINE_MS=1000
//! env: CHIDORI_JS_MEM_CAP_MB=1024
//! exit: 1
//! stderr: deadline
//! max-seconds: 4
// trim() of a string of spaces scans it all: charged per byte.
const s = " ".repeat(2 ** 24) + "x";
for (;;) s.trim();
