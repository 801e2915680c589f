//! mode: eval
//! env: CHIDORI_JS_MEM_CAP_MB=16
//! env: CHIDORI_JS_DEADLINE_MS=10000
//! exit: 1
//! stderr: memory ceiling
//! max-seconds: 30
// s += s alone builds a rope and hits "string too long"; indexOf flattens it each round
var s = "x";
for (;;) { s += s; s.indexOf("y"); }
