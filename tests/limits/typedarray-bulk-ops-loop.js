//! mode: eval
//! env: CHIDORI_JS_DEADLINE_MS=1000
//! exit: 1
//! stderr: deadline
//! max-seconds: 10
// Typed-array sort, set, copyWithin, reverse and same-type copies on 8M elements.
const a = new Float64Array(1 << 23), b = new Float64Array(1 << 23);
for (;;) { a.sort(); b.set(a); a.copyWithin(1, 0); a.reverse(); new Float64Array(a); }
