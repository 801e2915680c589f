//! env: CHIDORI_JS_MEM_CAP_MB=64
//! exit: 1
//! stderr: memory ceiling reached: the run needed more than 64 MiB (CHIDORI_JS_MEM_CAP_MB)
// One typed array larger than the ceiling is refused at allocation.
export default async () => { const a = new Uint8Array(2 ** 30); return a.length; };
