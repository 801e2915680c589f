//! mode: eval
//! env: CHIDORI_JS_OP_BUDGET=10000000
//! env: CHIDORI_JS_MEM_CAP_MB=1024
//! exit: 1
//! stderr: CPU budget
//! max-seconds: 6
// The CPU budget counts each match of a global replace, not one tick per call.
const s = "ab".repeat(2 ** 21);
for (;;) s.replace(/b/g, "c");
