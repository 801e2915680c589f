//! mode: eval
//! env: CHIDORI_JS_DEADLINE_MS=1000
//! exit: 1
//! stderr: deadline
//! max-seconds: 10
// with on an array-like copies every index but one.
const o = {length: 1 << 22};
for (let i = 0; ; i++) Array.prototype.with.call(o, 0, i);
