//! mode: eval
//! env: CHIDORI_JS_MEM_CAP_MB=16
//! env: CHIDORI_JS_DEADLINE_MS=10000
//! exit: 1
//! stderr: memory ceiling
//! max-seconds: 30
//! stdout-not: CAUGHT
try {
  var a = [];
  for (;;) a.push({x: [1, 2, 3]});
} catch (e) {
  a = null;
  console.log("CAUGHT");
}
