// Calls the tools named in the input, in order, and returns what each gave (or its error's text).
// Used by tests/cases_mcp_config_compat.py.
export default async function (input, chidori) {
  const out = [];
  for (const call of input.calls) {
    try {
      out.push({ ok: await chidori.tool(call.name, call.args) });
    } catch (e) {
      out.push({ error: String(e && e.message ? e.message : e) });
    }
  }
  return out;
}
