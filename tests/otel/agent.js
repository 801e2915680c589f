// One of each traced kind, for tests/cases_otel.py: a prompt, an MCP tool, a fetch, a nested
// agent (which prompts too). input.url: a loopback HTTP server.
export default async function (input, chidori) {
  const reply = await chidori.prompt("Say hello.", { model: "gpt-4o-mini" });
  const counted = await chidori.tool("counter__count", { n: 5 });
  const res = await fetch(input.url + "/hello?token=secret");
  const body = await res.text();
  let refused = null;
  try { await fetch("http://10.255.255.1/private"); } catch (e) { refused = String(e).slice(0, 40); }
  const child = await chidori.callAgent("child.js", { topic: "nested" });
  return { reply: reply, counted: counted, status: res.status, body: body, refused: refused !== null, child: child };
}
