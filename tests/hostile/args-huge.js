//! env: CHIDORI_JS_MEM_CAP_MB=1024
//! stdout: "memory: arguments are not valid JSON (JSON input of 73400357 bytes exceeds the 67108864-byte limit)"
// An effect argument over the frame cap (64 MiB) fails the call cleanly.
export default async (input, chidori) => {
  try { await chidori.memory.set("k", "x".repeat(70 << 20)); return "stored"; } catch (e) { return e.message.slice(0, 120); }
};
