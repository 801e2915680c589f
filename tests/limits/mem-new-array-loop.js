//! mode: eval
//! env: CHIDORI_JS_MEM_CAP_MB=16
//! env: CHIDORI_JS_DEADLINE_MS=10000
//! exit: 1
//! stderr: memory ceiling
//! max-seconds: 30
var keep = [];
for (;;) keep.push(new Array(1e6).fill(0));
