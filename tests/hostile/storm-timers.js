//! env: CHIDORI_JS_MEM_CAP_MB=256
//! exit: 1
//! stderr: memory ceiling reached: the run needed more than 256 MiB
// A million timers: the memory ceiling or the budget ends the run, never the host.
export default async () => { for (let i = 0; i < 1e7; i++) setTimeout(() => {}, i % 1000); };
