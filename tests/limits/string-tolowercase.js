//! mode: eval
//! env: CHIDORI_JS_DEADLINE_MS=1000
//! env: CHIDORI_JS_MEM_CAP_MB=1024
//! exit: 1
//! stderr: deadline
//! max-seconds: 4
// Case conversion of a big string polls every 4096 code units.
const s = "\u0130\u00df\u1e9e\u03a3A\u0301".repeat(2 ** 19);
for (;;) s.toLowerCase();
