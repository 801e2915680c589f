//! stdout-contains: "r": "set"
// Object.prototype.toJSON poisons every serialization; the effect still sends the real value or
// fails clearly, and the output is what the agent returned.
export default async (input, chidori) => {
  Object.prototype.toJSON = function () { return { action: "clear" }; };
  let r;
  try { await chidori.memory.set("k", { real: 1 }); r = "set"; } catch (e) { r = e.message; }
  delete Object.prototype.toJSON;
  return { r, after: await chidori.memory.list() };
};
