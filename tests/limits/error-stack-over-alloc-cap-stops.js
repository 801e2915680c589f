//! mode: eval
//! env: CHIDORI_JS_MAX_ALLOC_MB=1
//! exit: 1
//! stderr: allocation cap reached
//! max-seconds: 10
// A stack capture 1,000 frames deep, each frame named by 200,000 characters: its text outgrows the
// 1 MiB allocation cap within a few frames (so also on quickjs-ng, which keeps at most
// Error.stackTraceLimit frames, 10 by default). QuickJS leaves such a trace out without raising any
// error, so before the fix the refused allocation (the run's memory stop) went unreported, every
// `new Error` below did the same, and the loop ran until the default tick budget. The interrupt
// handler now answers "stop" once any limit has tripped, memory included.
function f(n) { if (n > 0) return f(n - 1); for (;;) new Error("x"); }
Object.defineProperty(f, "name", { value: "g".repeat(200000) });
f(1000);
