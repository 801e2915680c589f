// tests/serve/child.js — a nested agent for tests/serve/agent.js ("nested" mode): the same two
// counted MCP calls with a long computation between them, one level down.
import { run } from "chidori:agent";

run(async (input, chidori) => {
  const first = await chidori.tool("counter__count", { n: 1 });
  let x = 0;
  for (let i = 0; i < input.loops; i++) x = (x + i) % 1000003;
  const second = await chidori.tool("counter__count", { n: 2 });
  return { first, second, x };
});
