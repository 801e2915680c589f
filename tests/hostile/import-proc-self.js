//! stdout-contains: cannot import `/proc/self/environ` (from import-proc-self.js): absolute paths are not allowed
//! stdout-contains: cannot import `../../../../proc/self/mem` (from import-proc-self.js): it resolves outside
//! stdout-contains: cannot import `/dev/zero` (from import-proc-self.js): absolute paths are not allowed
//! stdout-not: imported
// /proc names the host process's own memory and environment.
export default async () => {
  const out = [];
  for (const spec of ["/proc/self/environ", "../../../../proc/self/mem", "/dev/zero"]) {
    try { await import(spec); out.push("imported " + spec); } catch (e) { out.push(e.message); }
  }
  return out;
};
