//! mode: eval
//! env: CHIDORI_JS_MEM_CAP_MB=64
//! exit: 1
//! stderr: memory ceiling reached
//! max-seconds: 10
// A growable SharedArrayBuffer commits its maxByteLength when it is made (quickjs-ng: through the
// SharedArrayBuffer hooks, which chidori points at the run's metered allocator, limits.c). So a
// 256 MiB maximum is charged at once against a 64 MiB ceiling, however small the buffer starts.
const sab = new SharedArrayBuffer(8, { maxByteLength: 2 ** 28 });
console.log("made", sab.byteLength);
