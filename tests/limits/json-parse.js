//! mode: eval
//! env: CHIDORI_JS_DEADLINE_MS=1000
//! env: CHIDORI_JS_MEM_CAP_MB=1024
//! exit: 1
//! stderr: deadline
//! max-seconds: 4
// JSON.parse of a big text: charged per byte and per value, polled per value.
const j = "[" + "1e308,\"ab\\\\u0041\",{\"k\":[]},".repeat(2 ** 16) + "0]";
for (;;) JSON.parse(j);
