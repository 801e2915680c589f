//! env: CHIDORI_JS_MEM_CAP_MB=64
//! exit: 1
//! stderr: memory ceiling reached: the run needed more than 64 MiB (CHIDORI_JS_MEM_CAP_MB)
// A Map grown without bound hits the run's memory ceiling, not the host's.
export default async () => { const m = new Map(); for (let i = 0; ; i++) m.set(i, { i, s: "x" + i }); };
