//! mode: eval
//! env: CHIDORI_JS_DEADLINE_MS=100
//! exit: 1
//! stderr: deadline
//! max-seconds: 10
// Reflect.ownKeys of a proxy checks the trap's keys for duplicates; that check was quadratic
// with no poll (320k keys: about 20 s in one native call against this 100 ms deadline).
const keys = Object.keys(new Uint8Array(320000));  // "0" … "319999", built natively and fast
const p = new Proxy({}, { ownKeys() { return keys; } });
for (;;) Reflect.ownKeys(p);
