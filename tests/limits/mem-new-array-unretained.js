//! mode: eval
//! env: CHIDORI_JS_DEADLINE_MS=1000
//! exit: 1
//! stderr: deadline
//! max-seconds: 10
// new Array(1e6) is a sparse length-only array: nothing is retained, so only the clock stops it
for (;;) new Array(1e6);
