//! mode: eval
//! env: CHIDORI_JS_OP_BUDGET=20000000
//! env: CHIDORI_JS_MEM_CAP_MB=1024
//! exit: 1
//! stderr: CPU budget
//! max-seconds: 6
// String.fromCharCode with 65534 arguments counts against the CPU budget per argument, not one tick per call.
const a = new Array(65534).fill(65);
for (;;) String.fromCharCode.apply(null, a);
