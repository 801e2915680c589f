//! stdout: "chidori.memory.set: the value is not JSON-serializable: stack overflow"
// Effect arguments nested 100,000 deep are refused, not recursed into by the host.
export default async (input, chidori) => {
  let v = 1; for (let i = 0; i < 100000; i++) v = [v];
  try { await chidori.memory.set("k", v); return "stored"; } catch (e) { return e.message; }
};
