// Writes a workspace file and a memory entry, reads both back.
export default async function (input, chidori) {
  const w = await chidori.workspace.write("notes/today.txt", "buy milk");
  const text = await chidori.workspace.read("notes/today.txt");
  await chidori.memory.set("last", { text }, { namespace: "notes" });
  const back = await chidori.memory.get("last", { namespace: "notes" });
  const list = await chidori.workspace.list();
  return { bytes: w.bytes, sha256: w.sha256, text, back, files: list.map((e) => e.path).filter((p) => p.startsWith("notes/")) };
}
