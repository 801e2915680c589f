//! stdout-contains: "timers": "function"
//! stderr: [log] still works
// A poisoned array iterator and Array.prototype methods do not break effects or built-in imports.
export default async (input, chidori) => {
  Array.prototype[Symbol.iterator] = function* () { yield "poison"; };
  Array.prototype.map = () => ["poison"];
  Array.prototype.push = () => 0;
  await chidori.log("still works");
  const timers = await import("node:timers");
  return { timers: typeof timers.setTimeout };
};
