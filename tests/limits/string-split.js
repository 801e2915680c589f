//! mode: eval
//! env: CHIDORI_JS_DEADLINE_MS=1000
//! env: CHIDORI_JS_MEM_CAP_MB=2048
//! exit: 1
//! stderr: deadline
//! max-seconds: 10
// Memory enough that only the deadline can end it: one split of these 16 M characters needs
// between 1.0 and 1.2 GiB on quickjs-ng (over 800 MiB on QuickJS) and takes more than a second, so
// with a 1 GiB cap the ceiling and the deadline raced.
var s = "ab".repeat(2**23); for (;;) s.split("").length;
