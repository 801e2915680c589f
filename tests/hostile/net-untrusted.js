//! args: --untrusted
//! stdout: "policy: `http` denied: the untrusted pro"
// Under the untrusted profile fetch is denied by the policy before the guard is even asked.
export default async () => {
  try { await fetch("http://127.0.0.1:9/"); return "fetched"; } catch (e) { return e.message.slice(0, 40); }
};
