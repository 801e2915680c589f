//! env: CHIDORI_JS_OP_BUDGET=20000000
//! exit: 1
//! stderr: CPU budget exhausted: the run used its 20000000 ticks
// A self-rescheduling timeout forever.
export default async () => new Promise(() => { const again = () => setTimeout(again, 1000); again(); });
