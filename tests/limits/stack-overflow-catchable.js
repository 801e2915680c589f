//! mode: eval
//! env: CHIDORI_JS_DEADLINE_MS=5000
//! exit: 0
//! stdout: caught InternalError: stack overflow
//! max-seconds: 15
function f() { f(); }
try { f(); } catch (e) { console.log("caught " + e.name + ": " + e.message); }
