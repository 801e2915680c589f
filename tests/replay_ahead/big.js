// tests/replay_ahead/big.js: two recorded answers of about a million values each, one after the
// other: together over the 2 M values a frame may hold, so an offer must not ride beside the first.
export default async function (input, chidori) {
  await chidori.memory.set("a", new Array(1100000).fill(0));
  const a = await chidori.memory.get("a");
  await chidori.memory.delete("a");
  await chidori.memory.set("b", new Array(1040000).fill(1));
  const b = await chidori.memory.get("b");
  await chidori.memory.delete("b");
  return { a: a.length, b: b.length, answer: await chidori.input("go on?") };
}
