//! mode: eval
//! env: CHIDORI_JS_OP_BUDGET=5000000
//! exit: 1
//! stderr: CPU budget
//! max-seconds: 10
// apply with 65,000 arguments, and a function bound to 30,000, copy them all on every call.
const args = new Array(65000).fill(1);
function f() {}
const g = f.bind(null, ...args.slice(0, 30000));
for (;;) { f.apply(null, args); g(); Reflect.apply(f, null, args); }
