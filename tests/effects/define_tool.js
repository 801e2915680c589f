// The model calls a defineTool handle; its result goes back; the final reply is JSON.
import { defineTool } from "chidori:agent";

const add = defineTool({
  name: "add",
  description: "Adds two numbers",
  parameters: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } } },
  run: async ({ a, b }, chidori) => {
    await chidori.log("adding", { a, b });
    return { sum: a + b };
  },
});

export default async function (input, chidori) {
  return chidori.prompt("What is 2 + 40? Answer as JSON.", { tools: [add], format: "json", model: "claude-test" });
}
