//! mode: eval
//! env: CHIDORI_JS_DEADLINE_MS=5000
//! exit: 1
//! stderr: stack overflow
//! max-seconds: 15
function f() { f(); }
f();
