//! mode: eval
//! env: CHIDORI_JS_DEADLINE_MS=100
//! env: CHIDORI_JS_MEM_CAP_MB=1024
//! exit: 1
//! stderr: wall-clock deadline exceeded
//! stderr-not: the backstop ended the process
//! max-seconds: 5
// A greedy class loop over 4 MiB (the Headers name check's shape): each character is a split of
// the regexp engine, which did not poll, so one test ran about 400 ms past any deadline and the
// engine was ended by the backstop (ng patch 0029 polls at each split).
const s = "ab".repeat(2 ** 21);
for (;;) /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(s);
