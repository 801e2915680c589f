//! mode: eval
//! env: CHIDORI_JS_MAX_ALLOC_MB=8
//! stdout-contains: over cap: RangeError Array buffer allocation failed|RangeError Array buffer allocation failed|RangeError Array buffer allocation failed|ERR_OUT_OF_RANGE
//! stdout-contains: at cap: 8388608; run goes on
//! stderr-not: allocation cap reached
// A Buffer over the single-allocation cap (CHIDORI_JS_MAX_ALLOC_MB) is refused by node:buffer
// before anything is allocated, with a RangeError the agent catches (Node's wording when it
// cannot get the memory), instead of ending the run; one at the cap is still made, and above
// kMaxLength stays Node's ERR_OUT_OF_RANGE. (Before: the run ended at the first allocation.)
const SlowBuffer = Buffer.allocUnsafeSlow, kMaxLength = 2147483647; // node:buffer's kMaxLength
const attempt = (f) => { try { f(); return "made"; } catch (e) { return e.code || e.name + " " + e.message; } };
console.log("over cap: " + [attempt(() => Buffer.alloc(8 * 1048576 + 1)), attempt(() => Buffer.allocUnsafe(kMaxLength)),
  attempt(() => SlowBuffer(64 * 1048576)), attempt(() => Buffer.alloc(kMaxLength + 1))].join("|"));
console.log("at cap: " + Buffer.alloc(8 * 1048576, 1).length + "; run goes on");
