//! mode: eval
//! env: CHIDORI_JS_DEADLINE_MS=1000
//! exit: 1
//! stderr: deadline
//! max-seconds: 10
// Native code that walks a built-in iterator (here a string's, 4M characters) took a fast path
// that skipped the per-call tick: array spread and AggregateError each ran 4M steps as one
// tick. Each step now costs one.
const s = "ab".repeat(1 << 21);
for (;;) { [...s]; new AggregateError(s); }
