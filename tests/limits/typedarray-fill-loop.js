//! mode: eval
//! env: CHIDORI_JS_DEADLINE_MS=1000
//! exit: 1
//! stderr: deadline
//! max-seconds: 10
// One fill of 64 MiB used to cost one tick: a loop of them ran for minutes past the deadline.
const a = new Uint8Array(1 << 26);
for (let i = 0; ; i++) a.fill(i & 255);
