//! env: CHIDORI_JS_MEM_CAP_MB=64
//! exit: 1
//! stderr: memory ceiling reached: the run needed more than 64 MiB (CHIDORI_JS_MEM_CAP_MB)
// A chain of closures, each holding the previous one.
export default async () => { let f = () => 0; for (;;) { const g = f; f = () => g() + 1; } };
