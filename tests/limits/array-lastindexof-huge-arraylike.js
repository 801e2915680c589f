//! mode: eval
//! env: CHIDORI_JS_DEADLINE_MS=1000
//! exit: 1
//! stderr: deadline
//! max-seconds: 10
Array.prototype.lastIndexOf.call({length: 2**32-1}, 1);
