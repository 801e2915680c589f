// Each failing effect is caught and its message returned; the run itself completes.
export default async function (input, chidori) {
  const msg = (p) => p.then(() => "no error", (e) => String(e.message));
  return {
    http500: await msg(chidori.prompt("first")),
    garbage: await msg(chidori.prompt("second")),
    mcpDies: await msg(chidori.tool("bad__misbehave", {})),
    template: await msg(chidori.template("{% if x %}never closed", { x: 1 })),
    memory: await msg(chidori.memory.set("k", { n: 1n })),
  };
}
