//! env: CHIDORI_JS_MEM_CAP_MB=1024
//! exit: 1
//! stderr: the agent's output is too large: 83886082 bytes of JSON (the limit is 16 MiB)
// An output larger than the host accepts is refused with a clear error, not written.
export default async () => "x".repeat(80 << 20);
