//! env: CHIDORI_JS_MEM_CAP_MB=64
//! exit: 1
//! stderr: memory ceiling reached: the run needed more than 64 MiB (CHIDORI_JS_MEM_CAP_MB)
// A Set of fresh strings grown without bound.
export default async () => { const s = new Set(); for (let i = 0; ; i++) s.add("key-" + i + "-".repeat(64)); };
