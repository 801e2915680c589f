// One prompt, one MCP tool call, one log line: the calls whose records changed shape (issue 17).
// Used by tests/cases_record_format.py, live and against the logs in old_shape/ and original_shape/.
export default async function (input, chidori) {
  const reply = await chidori.prompt(input.question, { system: "Be brief.", temperature: 0.5, maxTokens: 200 });
  const tool = await chidori.tool("counter__count", { n: 2 });
  await chidori.log("done", { reply });
  return { reply, tool };
}
