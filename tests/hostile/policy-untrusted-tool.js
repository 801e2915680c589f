//! args: --untrusted
//! stdout-contains: "policy: `tool:fs__write_file` denied: the untrusted profile denies this effect
//! stderr: chidori: policy: `tool:fs__write_file` denied
// Under the untrusted profile a tool call is denied before any tool server is started.
export default async (input, chidori) => {
  try { await chidori.tool("fs__write_file", { path: "/etc/passwd", content: "x" }); return "performed"; }
  catch (e) { return e.message; }
};
