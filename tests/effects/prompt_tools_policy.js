// One prompt offering the MCP tools named in input.tools; used by cases_misc.py to see which
// tools the policy lets through to the model (and which servers were started for them).
export default async function (input, chidori) {
  return { reply: await chidori.prompt("Which tools do you have?", { tools: input.tools }) };
}
