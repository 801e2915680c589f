// The tool loops: ctx.prompt() over a registry tool (MCP) and a defineTool handle, one `prompt`
// record per turn; conversation().say() over a handle (respond turns, a mark per call).
import { chidori, run, defineTool } from "chidori:agent";

const double = defineTool({
  name: "double",
  description: "Doubles n.",
  parameters: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
  run: async ({ n }) => ({ doubled: n * 2 }),
});

run(async () => {
  const ctx = chidori.context({ system: "Use tools.", tools: ["counter__count", double] }).cacheBreakpoint("1h");
  const looped = await ctx.user("count to 5 and double 4").prompt({ maxTokens: 300 });
  const chat = chidori.conversation({ system: "Chat with tools.", tools: [double] });
  const said = await chat.say("double 21");
  return {
    text: looped.text,
    messages: looped.context.estimateTokens() > ctx.estimateTokens(),
    said,
    history: chat.history(),
  };
});
