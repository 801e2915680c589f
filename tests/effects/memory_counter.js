// A counter that survives runs; a second namespace stays separate.
export default async function (input, chidori) {
  const count = ((await chidori.memory.get("count")) ?? 0) + 1;
  await chidori.memory.set("count", count);
  const other = await chidori.memory.get("count", { namespace: "elsewhere" });
  const keys = (await chidori.memory.list()).map((e) => e.key);
  return { count, other, keys };
}
