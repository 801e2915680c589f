//! mode: eval
//! env: CHIDORI_JS_DEADLINE_MS=1000
//! exit: 1
//! stderr: deadline
//! max-seconds: 10
// Object.keys / values / entries / getOwnPropertyNames enumerate every own key natively.
const o = {};
for (let i = 0; i < 200000; i++) o["k" + i] = i;
for (;;) { Object.keys(o); Object.getOwnPropertyNames(o); Object.isFrozen(o); }
