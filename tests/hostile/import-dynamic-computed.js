//! stdout-contains: it resolves outside the agent's folder
// A computed dynamic import climbing out of the project is refused at run time.
export default async () => {
  const spec = "../".repeat(30) + "etc/passwd";
  try { await import(spec); return "imported"; } catch (e) { return e.message; }
};
