//! mode: eval
//! env: CHIDORI_JS_OP_BUDGET=20000000
//! exit: 1
//! stderr: CPU budget exhausted
//! max-seconds: 5
// A DisposableStack whose disposers throw: the later one does most of the loop's work, so the
// budget's stop lands in it on every poll, while an earlier error is pending. The stop must end
// the run, not come out wrapped in a catchable SuppressedError (quickjs-ng before ng 0014 did that
// and this loop never ended).
for (;;) {
  const s = new DisposableStack();
  s.defer(() => { for (let i = 0; i < 1e6; i++); });
  s.defer(() => { throw 1; });
  try { s.dispose(); } catch (e) {}
}
