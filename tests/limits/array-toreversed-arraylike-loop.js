//! mode: eval
//! env: CHIDORI_JS_DEADLINE_MS=1000
//! exit: 1
//! stderr: deadline
//! max-seconds: 10
// toReversed on an array-like reads every index (all holes) into a new dense array.
const o = {length: 1 << 22};
for (let i = 0; ; i++) Array.prototype.toReversed.call(o);
