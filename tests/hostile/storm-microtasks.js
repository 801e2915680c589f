//! env: CHIDORI_JS_OP_BUDGET=20000000
//! exit: 1
//! stderr: CPU budget exhausted: the run used its 20000000 ticks
// An endless microtask chain never yields to the host; the budget ends it.
export default async () => { const spin = () => queueMicrotask(spin); spin(); return new Promise(() => {}); };
