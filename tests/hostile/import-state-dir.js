//! stdout-contains: cannot find module `./.chidori/memory.json`
//! stdout-contains: Permission denied
// The run's own state folder (.chidori: call logs, memory) is not importable.
export default async () => {
  try { await import("./.chidori/memory.json"); return "imported"; } catch (e) { return e.message; }
};
