// Workspace writes and deletes kept in .generation/manifest.json; listing is manifest ∪ disk.
import { chidori, run } from "chidori:agent";

run(async (input) => {
  const w = await chidori.workspace.write("notes/./a.md", input.secret, { language: "markdown" });
  const x = await chidori.workspace.write("b.ts", "let b = 1;");
  await chidori.workspace.write("gone.txt", "soon gone");
  const removed = await chidori.workspace.delete("gone.txt", "superseded");
  let refused;
  try { await chidori.workspace.write(".generation/manifest.json", "{}"); } catch (e) { refused = e.message; }
  const list = await chidori.workspace.list();
  const manifest = await chidori.workspace.manifest();
  return { w, language: x.language, removed, refused, list, manifest };
});
