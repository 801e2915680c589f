//! mode: eval
//! env: CHIDORI_JS_OP_BUDGET=20000000
//! env: CHIDORI_JS_MEM_CAP_MB=1024
//! exit: 1
//! stderr: CPU budget
//! max-seconds: 6
// The CPU budget counts JSON.parse's work.
const j = "[" + "1e308,\"ab\\\\u0041\",{\"k\":[]},".repeat(2 ** 16) + "0]";
for (;;) JSON.parse(j);
