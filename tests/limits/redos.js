//! mode: eval
//! env: CHIDORI_JS_DEADLINE_MS=1000
//! exit: 1
//! stderr: deadline
//! max-seconds: 10
/^(a+)+$/.test("a".repeat(40) + "!");
