//! mode: eval
//! env: CHIDORI_JS_DEADLINE_MS=1000
//! env: CHIDORI_JS_MEM_CAP_MB=1024
//! exit: 1
//! stderr: deadline
//! max-seconds: 4
// decodeURIComponent of a big text: charged per byte built.
const s = "%41".repeat(2 ** 22);
for (;;) decodeURIComponent(s);
