// Tries one call of each gated kind and reports what the policy let through.
export default async function (input, chidori) {
  const verdict = (p) => p.then(() => "ok", (e) => String(e.message));
  return {
    list: await verdict(chidori.workspace.list()),
    read: await verdict(chidori.workspace.read("policy_probe.js")),
    write: await verdict(chidori.workspace.write("probe.txt", "written")),
    tool: await verdict(chidori.tool("srv__echo", { message: "hi" })),
  };
}
