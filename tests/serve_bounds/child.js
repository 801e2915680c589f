// tests/serve_bounds/child.js — the nested agent of tests/serve_bounds/agent.js: input.n marks.
import { run } from "chidori:agent";

run(async (input, chidori) => {
  for (let i = 0; i < input.n; i++) await chidori.mark("child", { i });
  return { n: input.n };
});
