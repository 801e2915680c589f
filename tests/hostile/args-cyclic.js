//! stdout: "log: arguments are not JSON-serializable: circular reference"
// Cyclic effect arguments are refused before they reach the host.
export default async (input, chidori) => {
  const a = {}; a.self = a;
  try { await chidori.log("cyclic", a); return "sent"; } catch (e) { return e.message; }
};
