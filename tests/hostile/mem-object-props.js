//! env: CHIDORI_JS_MEM_CAP_MB=64
//! exit: 1
//! stderr: memory ceiling reached: the run needed more than 64 MiB (CHIDORI_JS_MEM_CAP_MB)
// An object given ever more properties (dictionary-mode growth).
export default async () => { const o = {}; for (let i = 0; ; i++) o["p" + i] = i; };
