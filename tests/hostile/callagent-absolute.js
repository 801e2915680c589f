//! stdout: "chidori.callAgent: `path` must be a relative path inside the agent's folder"
// A nested agent by absolute path would run any file on the host as an agent.
export default async (input, chidori) => {
  try { return await chidori.callAgent("/etc/passwd", {}); } catch (e) { return e.message; }
};
