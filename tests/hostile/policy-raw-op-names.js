//! stdout-contains: "TypeError",
//! stdout-not: function
//! stdout-not: number
// Guest code has no way to name a host op directly: the effect object is frozen, and unknown or
// internal ops cannot be reached through it.
export default async (input, chidori) => {
  const tries = [];
  try { chidori.__module_load = () => 1; } catch (e) { tries.push(e.name); }
  try { Object.setPrototypeOf(chidori, { evil: 1 }); } catch (e) { tries.push(e.name); }
  tries.push(typeof chidori.__module_load, typeof chidori.host, typeof chidori.workspace.__proto__.perform);
  return tries;
};
