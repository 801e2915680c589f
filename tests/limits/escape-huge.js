//! mode: eval
//! env: CHIDORI_JS_DEADLINE_MS=1000
//! env: CHIDORI_JS_MEM_CAP_MB=1024
//! exit: 1
//! stderr: deadline
//! max-seconds: 4
// escape() of a big wide string builds a 6x longer one: charged per byte built.
const s = "\u0101".repeat(2 ** 22);
for (;;) escape(s);
