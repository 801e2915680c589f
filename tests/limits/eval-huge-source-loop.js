//! mode: eval
//! env: CHIDORI_JS_DEADLINE_MS=1000
//! exit: 1
//! stderr: deadline
//! max-seconds: 10
// Compiling a 4 MB source was one tick; a loop of indirect evals ran far past the deadline.
const src = "x=1;".repeat(1 << 20);
for (;;) (0, eval)(src);
