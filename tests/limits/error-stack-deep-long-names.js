//! mode: eval
//! env: CHIDORI_JS_DEADLINE_MS=1000
//! exit: 1
//! stderr: deadline
//! max-seconds: 10
// Capturing a stack walks the frames and prints each function name: with 500 frames of a function
// named by 100,000 characters, one `new Error` builds a 50 MB trace on QuickJS (quickjs-ng stops at
// Error.stackTraceLimit frames, 10: 1 MB). The capture is charged per frame by its text, so a loop
// of them ends at the deadline. (500, not deeper: under ASan quickjs-ng's frames are big enough
// that about 700 fill the stack budget.)
function f(n) { if (n > 0) return f(n - 1); for (;;) new Error("x"); }
Object.defineProperty(f, "name", {value: "g".repeat(100000)});
f(500);
