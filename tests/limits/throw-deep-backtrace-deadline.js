//! mode: eval
//! env: CHIDORI_JS_DEADLINE_MS=1000
//! exit: 1
//! stderr: deadline
//! max-seconds: 4
// Found by fuzz_engine: creating an error walks every frame of the stack to build its backtrace,
// and that walk cost one tick however deep the stack. Throwing in a loop 2,000 frames down ran
// 10,000 throws (seconds) between two checks of the deadline. The walk now charges its work and
// polls the interrupt.
function depth(n) { try { return depth(n + 1); } catch (e) { return n; } }
const max = depth(0);
function deep(n) { if (n > 0) return deep(n - 1); for (;;) { try { null.x; } catch (e) {} } }
deep(Math.min(2000, max - 50));
