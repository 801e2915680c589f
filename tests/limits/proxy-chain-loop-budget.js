//! mode: eval
//! env: CHIDORI_JS_OP_BUDGET=5000000
//! exit: 1
//! stderr: CPU budget
//! max-seconds: 10
// An operation on the outermost of a thousand nested proxies with no traps is forwarded
// through every level; each level now costs a tick.
let p = {};
for (let i = 0; i < 1000; i++) p = new Proxy(p, {});
for (;;) p.x;
