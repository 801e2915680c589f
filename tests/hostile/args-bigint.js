//! stdout: "chidori.memory.set: the value is not JSON-serializable: Do not know how to serialize a BigInt"
// A BigInt in effect arguments is not JSON.
export default async (input, chidori) => {
  try { await chidori.memory.set("k", 10n); return "stored"; } catch (e) { return e.message; }
};
