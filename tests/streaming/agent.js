// tests/streaming/agent.js — the agent of tests/cases_streaming.py: prompts whose replies stream.
// input.mode: "one" (default) one prompt typed "summary"; "tool" a prompt that calls a defineTool
// handle and then answers; "two" two prompts; "input" a prompt, then an input() pause, then a prompt.
import { run, defineTool } from "chidori:agent";

const add = defineTool({
  name: "add",
  description: "Adds two numbers",
  parameters: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } } },
  run: async ({ a, b }) => ({ sum: a + b }),
});

run(async (input, chidori) => {
  const model = input.model;
  switch (input.mode) {
    case "tool":
      return { reply: await chidori.prompt("What is 2 + 40?", { tools: [add], model }) };
    case "two": {
      const a = await chidori.prompt("first", { streamType: "draft", model });
      const b = await chidori.prompt("second", { stream_type: "final", model });
      return { a, b };
    }
    case "input": {
      const a = await chidori.prompt("before", { model });
      const answer = await chidori.input("Go on?");
      const b = await chidori.prompt("after " + answer, { model });
      return { a, b, answer };
    }
    default:
      return { reply: await chidori.prompt(input.text || "Summarize the news.", { type: "summary", model }) };
  }
});
