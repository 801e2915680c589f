//! mode: eval
//! env: CHIDORI_JS_OP_BUDGET=100000000
//! exit: 1
//! stderr: CPU budget
//! max-seconds: 10
// shift() on a dense array moves every other element down: a queue drained with shift() is
// quadratic, and each shift was one tick. It now costs one tick per element moved.
const q = new Array(1 << 22).fill(0);
for (;;) { q.shift(); q.push(0); }
