//! stdout: "chidori.callAgent: `path` must be a relative path inside the agent's folder"
// A nested agent outside the project folder.
export default async (input, chidori) => {
  try { return await chidori.callAgent("../../../../../../tmp/evil.js", {}); } catch (e) { return e.message; }
};
