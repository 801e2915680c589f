//! stdout-not: "read"
//! stdout-contains: "/etc/passwd": "chidori.workspace: `…` is not a path inside the workspace
//! stdout-contains: "../outside.txt": "chidori.workspace: `…` is not a path inside
//! stdout-contains: ".chidori/memory.json": "chidori.workspace: `…` is not a file of the workspace"
//! stdout-contains: "a\u0000b": "chidori.workspace: `…` is not a path inside
// Every spelling of "outside the workspace" is refused by the host, and nothing is written.
export default async (input, chidori) => {
  const out = {};
  for (const p of ["../outside.txt", "/etc/passwd", "a/../../b", ".chidori/memory.json", "./.chidori/runs/x", "a\u0000b", ""]) {
    try { await chidori.workspace.read(p); out[p] = "read"; } catch (e) { out[p] = e.message.replace(/`[^`]*`/g, "`…`"); }
  }
  return out;
};
