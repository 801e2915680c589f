//! mode: eval
//! env: CHIDORI_JS_MAX_ALLOC_MB=1
//! exit: 1
//! stderr: allocation cap reached
//! max-seconds: 10
// The bytecode of 250,000 character classes is more than the 1 MiB allocation cap allows (the
// pattern itself is under it). That refusal is the run's memory stop; before patch 0013 the
// compiler's "out of memory" came out as a catchable SyntaxError, and the guest caught it and went
// on past its limit: this loop ran until the default tick budget.
const p = "[ab]".repeat(250000);
for (;;) { try { new RegExp(p); } catch (e) {} }
