//! mode: eval
//! env: CHIDORI_JS_DEADLINE_MS=2000
//! exit: 0
//! stdout: THREW
//! max-seconds: 10
// can_block is 0: Atomics.wait must throw at once, never block for the 5 s timeout
try {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5000);
  console.log("RETURNED");
} catch (e) {
  console.log("THREW");
}
