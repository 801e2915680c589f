//! mode: eval
//! env: CHIDORI_JS_OP_BUDGET=20000000
//! exit: 1
//! stderr: CPU budget
//! max-seconds: 30
while (true) {}
