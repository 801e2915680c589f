import type { ToolDefinition } from "chidori:agent";
// a seed for fuzz_tool_decl: every kind of value the reader accepts
export const tool: ToolDefinition = {
  name: "word_count",
  description: "Counts words. " + 'Second part, ' + `third part`,
  parameters: {
    type: "object",
    properties: { text: { type: "string", description: "caf\u00e9 \x41" }, max: { type: "number" }, },
    required: ["text",],
    flags: [true, false, null, -1.5e3],
  },
};
/* a block comment */
export async function run(args: { text: string }) { return args.text.split(/\s+/).length; }
