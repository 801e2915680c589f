//! mode: eval
//! env: CHIDORI_JS_DEADLINE_MS=1000
//! exit: 1
//! stderr: deadline
//! max-seconds: 10
// The invariant check against a frozen target looked every target key up in the trap's list.
const o = {};
for (let i = 0; i < 100000; i++) o["k" + i] = i;
Object.freeze(o);
const keys = Object.keys(o);
const p = new Proxy(o, { ownKeys() { return keys; } });
for (;;) Reflect.ownKeys(p);
