//! env: CHIDORI_JS_OP_BUDGET=2000000
//! exit: 1
//! stderr: CPU budget exhausted: the run used its 2000000 ticks
//! stderr: fired 5000
//! stderr-not: fired 20000
// Each timer turn costs the engine's loop far more than the few ticks its callback counts. The
// loop charges a fixed price per turn, so a budget of 2,000,000 ticks buys about 15,600 turns of
// this chain, not the ~70,000 it would buy uncharged, and a timer storm's CPU time per tick stays
// near a plain loop's (the supervisor's CPU backstop assumes as much).
export default async () => new Promise(() => {
  let n = 0;
  const again = () => { if (++n % 5000 === 0) console.log(`fired ${n}`); setTimeout(again, 1); };
  again();
});
