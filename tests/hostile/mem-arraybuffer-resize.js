//! env: CHIDORI_JS_MEM_CAP_MB=64
//! exit: 1
//! stderr: memory ceiling reached: the run needed more than 64 MiB (CHIDORI_JS_MEM_CAP_MB)
// Growing an ArrayBuffer step by step past the ceiling.
export default async () => { const bufs = []; for (;;) bufs.push(new ArrayBuffer(16 << 20)); };
