//! stdout: "kept"
// Replacing JSON.stringify/parse does not change how effects are marshalled.
export default async (input, chidori) => {
  JSON.stringify = () => '{"action":"clear"}';
  JSON.parse = () => ({ forged: true });
  await chidori.memory.set("k", "kept");
  return await chidori.memory.get("k");
};
