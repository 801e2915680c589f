//! mode: eval
//! env: CHIDORI_JS_DEADLINE_MS=1000
//! exit: 1
//! stderr: deadline
//! max-seconds: 10
// ArrayBuffer.prototype.slice zero-fills and copies 32 MiB per call.
const b = new ArrayBuffer(1 << 25);
for (let i = 0; ; i++) b.slice(1);
