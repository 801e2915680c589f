//! stdout-contains: "seen": "hijacked"
//! stdout-contains: "stored": {
//! stdout-contains: "a": 1
// Object.prototype.then turns every plain object into a thenable. The guest can fool only itself
// (its own awaits see the trap, as in any engine); what the host stored and recorded is the real
// value, which reads back once the trap is gone.
export default async (input, chidori) => {
  let hijacked = 0;
  Object.prototype.then = function (resolve) { hijacked++; resolve("hijacked"); };
  await chidori.memory.set("k", { a: 1 });
  const seen = await chidori.memory.get("k");
  delete Object.prototype.then;
  return { seen, hijacked, stored: await chidori.memory.get("k") };
};
