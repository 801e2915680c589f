//! mode: eval
//! env: CHIDORI_JS_OP_BUDGET=20000000
//! exit: 1
//! stderr: CPU budget
//! max-seconds: 10
// new Function compiles its body: the parser is charged per token, so the budget runs out.
const body = "x=1;".repeat(1 << 20);
for (;;) new Function(body);
