//! mode: eval
//! env: CHIDORI_JS_DEADLINE_MS=1000
//! exit: 1
//! stderr: deadline
//! max-seconds: 10
// slice copies the array; the copies are dropped each turn so memory stays flat.
const a = new Uint16Array(1 << 24);
for (let i = 0; ; i++) a.slice();
