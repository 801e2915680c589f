//! mode: eval
//! env: CHIDORI_JS_OP_BUDGET=20000000
//! exit: 1
//! stderr: CPU budget exhausted
//! max-seconds: 5
// A stack capture converts each frame's function name, and the conversion is charged by the name's
// size. When that charge is the one that stops the run, the capture must end there too: with
// 50,000-character names on 500 frames (quickjs-ng converts the top 10) the budget's poll lands in
// the name conversion (this length and budget put it there on every run), and before the fix the stop was dropped with the
// Error constructor's normal return, so the loop below went on past any budget (CI saw the deadline
// twin, error-stack-deep-long-names.js, hang about one run in five).
function f(n) { if (n > 0) return f(n - 1); for (;;) new Error("x"); }
Object.defineProperty(f, "name", {value: "g".repeat(50000)});
f(500);
