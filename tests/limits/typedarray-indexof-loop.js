//! mode: eval
//! env: CHIDORI_JS_DEADLINE_MS=1000
//! exit: 1
//! stderr: deadline
//! max-seconds: 10
// indexOf / lastIndexOf / includes scan the whole array for a value that is not there.
const a = new Int32Array(1 << 24);
for (let i = 0; ; i++) { a.indexOf(7); a.lastIndexOf(7); a.includes(7); }
