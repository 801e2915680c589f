//! mode: eval
//! env: CHIDORI_JS_DEADLINE_MS=1000
//! exit: 1
//! stderr: deadline
//! max-seconds: 10
// A WeakMap cannot hold a string key, but get/has/delete still hashed it: a rope of 2^28
// characters took about a second per call. The key's hash is charged by its length.
let s = "x";
for (let i = 0; i < 28; i++) s = s + s;
const w = new WeakMap();
for (;;) { w.get(s); w.has(s); w.delete(s); }
