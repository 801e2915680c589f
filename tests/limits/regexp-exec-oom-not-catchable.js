//! mode: eval
//! env: CHIDORI_JS_MAX_ALLOC_MB=1
//! exit: 1
//! stderr: allocation cap reached
//! max-seconds: 10
// Matching this pattern pushes one backtracking state per character, and the state stack for
// 100,000 of them is more than the 1 MiB allocation cap allows. That refusal is the run's memory
// stop; before patch 0013 it came out as a catchable InternalError ("out of memory in regexp
// execution"), so the guest caught it and went on past its limit: this loop ran until the
// default tick budget.
const s = "a".repeat(100000);
for (;;) { try { /(?:a|b)*c/.exec(s); } catch (e) {} }
