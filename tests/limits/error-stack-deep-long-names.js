//! mode: eval
//! env: CHIDORI_JS_DEADLINE_MS=1000
//! exit: 1
//! stderr: deadline
//! max-seconds: 10
// Capturing a stack walks every frame and prints each function name: with 1,000 frames of a
// function named by 100,000 characters, one `new Error` builds a 100 MB trace. The capture is
// charged per frame by its text, so a loop of them ends at the deadline.
function f(n) { if (n > 0) return f(n - 1); for (;;) new Error("x"); }
Object.defineProperty(f, "name", {value: "g".repeat(100000)});
f(1000);
