//! mode: eval
//! env: CHIDORI_JS_DEADLINE_MS=1000
//! exit: 1
//! stderr: deadline
//! max-seconds: 10
// A Map key is hashed by its content: a rope of 2^28 characters (a few KB of memory) took
// about a second to hash per lookup. Lookups are charged by the key's length.
let s = "x";
for (let i = 0; i < 28; i++) s = s + s;
const m = new Map([[1, 2]]);
for (;;) m.has(s);
