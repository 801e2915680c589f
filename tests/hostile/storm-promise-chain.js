//! env: CHIDORI_JS_MEM_CAP_MB=256
//! exit: 1
//! stderr: memory ceiling reached: the run needed more than 256 MiB
// An endless chain of resolved promises.
export default async () => { let p = Promise.resolve(); for (;;) p = p.then(() => 1); };
