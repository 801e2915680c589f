//! mode: eval
//! env: CHIDORI_JS_DEADLINE_MS=1000
//! env: CHIDORI_JS_MEM_CAP_MB=1024
//! exit: 1
//! stderr: deadline
//! max-seconds: 4
// JSON.stringify of one big string quotes it all: charged per byte built.
const s = "ab".repeat(2 ** 22);
for (;;) JSON.stringify(s);
