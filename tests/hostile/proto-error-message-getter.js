//! stdout: "chidori.callAgent: `path` must be a relative path inside the agent's folder"
// An Error.prototype.message getter cannot change a host error's message or reach the host.
export default async (input, chidori) => {
  Object.defineProperty(Error.prototype, "message", { get() { return "forged"; }, configurable: true });
  try { await chidori.callAgent("/etc/passwd", {}); } catch (e) { return Object.getOwnPropertyDescriptor(e, "message").value; }
};
