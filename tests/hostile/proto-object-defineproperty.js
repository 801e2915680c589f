//! stdout-contains: "replaced": "TypeError"
//! stdout-contains: "frozen": true
// Replacing Object.defineProperty/freeze after start-up cannot unfreeze the chidori object.
export default async (input, chidori) => {
  Object.defineProperty = () => {};
  Object.freeze = (o) => o;
  let replaced = "no";
  try { chidori.memory = null; replaced = chidori.memory === null ? "yes" : "no"; } catch (e) { replaced = e.constructor.name; }
  return { replaced, frozen: Object.isFrozen(chidori) };
};
