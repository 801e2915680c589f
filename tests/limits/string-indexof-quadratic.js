//! mode: eval
//! env: CHIDORI_JS_DEADLINE_MS=1000
//! exit: 1
//! stderr: deadline
//! max-seconds: 10
var a = "a".repeat(1 << 22), b = "a".repeat(1 << 21) + "b";
a.indexOf(b);
