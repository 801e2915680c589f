//! mode: eval
//! env: CHIDORI_JS_DEADLINE_MS=1000
//! exit: 1
//! stderr: deadline
//! max-seconds: 10
//! stdout-not: CAUGHT
Promise.resolve().then(() => { for (;;) {} }).catch(() => { console.log("CAUGHT"); });
