//! mode: eval
//! env: CHIDORI_JS_DEADLINE_MS=1000
//! env: CHIDORI_JS_MEM_CAP_MB=1024
//! env: CHIDORI_JS_OP_BUDGET=0
//! exit: 1
//! stderr: deadline
//! max-seconds: 4
// Each new rope is flattened into a fresh string: charged per byte built. The deadline is what
// this checks (the tick budget is off: on a heap that needs no new page per string it ended the
// loop first).
const a = "x".repeat(2 ** 23);
for (let i = 0; ; i++) (a + i).charCodeAt(0);
