//! args: --untrusted
//! stdout-contains: "write": "policy: `workspace:write` denied: the untrusted profile denies this effect
//! stdout-contains: "delete": "policy: `workspace:delete` denied
//! stdout-contains: "write-unbound": "policy: `workspace:write` denied
//! stdout-not: performed
// Under the untrusted profile every mutating workspace action is denied, however the method is
// called, and nothing is written.
export default async (input, chidori) => {
  const out = {};
  for (const [name, call] of [
    ["write", () => chidori.workspace.write("x.txt", "data")],
    ["delete", () => chidori.workspace.delete("x.txt")],
    ["write-unbound", () => chidori.workspace.write.call(null, "x.txt", "data")],
  ]) {
    try { await call(); out[name] = "performed"; } catch (e) { out[name] = e.message; }
  }
  return out;
};
