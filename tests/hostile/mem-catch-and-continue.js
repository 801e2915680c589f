//! env: CHIDORI_JS_MEM_CAP_MB=64
//! exit: 1
//! stderr: memory ceiling reached: the run needed more than 64 MiB (CHIDORI_JS_MEM_CAP_MB)
// Catching the out-of-memory error to keep allocating: the error is uncatchable.
export default async () => {
  const keep = [];
  for (;;) { try { keep.push(new Array(1e6).fill(1)); } catch (e) { keep.length = 0; } }
};
