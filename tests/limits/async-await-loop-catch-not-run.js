//! mode: eval
//! env: CHIDORI_JS_DEADLINE_MS=1000
//! exit: 1
//! stderr: deadline
//! max-seconds: 10
//! stdout-not: CAUGHT
(async () => {
  try { await 0; for (;;) {} } catch (e) { console.log("CAUGHT"); }
})().catch(() => console.log("CAUGHT"));
