//! mode: eval
//! env: CHIDORI_JS_DEADLINE_MS=1000
//! env: CHIDORI_JS_MEM_CAP_MB=1024
//! exit: 1
//! stderr: deadline
//! max-seconds: 4
// localeCompare normalizes both strings: charged per code point.
const s = "\u0130\u00df\u1e9e\u03a3a\u0301".repeat(2 ** 17), t = s + "";
for (;;) s.localeCompare(t);
