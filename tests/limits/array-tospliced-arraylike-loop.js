//! mode: eval
//! env: CHIDORI_JS_DEADLINE_MS=1000
//! exit: 1
//! stderr: deadline
//! max-seconds: 10
// toSpliced on an array-like copies everything it does not delete.
const o = {length: 1 << 22};
for (let i = 0; ; i++) Array.prototype.toSpliced.call(o, 0, 1);
