// tests/serve_bounds/agent.js — the agent tests/cases_serve_bounds.py serves: a long run of
// chidori.mark calls (input.n of them, each carrying input.pad characters), optionally around a
// pause on input(), or inside a nested agent, to fill a session's stored log.
import { run } from "chidori:agent";

run(async (input, chidori) => {
  const pad = "x".repeat(input.pad ?? 0);
  if (input.nested) {
    const child = await chidori.callAgent("child.js", { n: input.n });
    await chidori.mark("after", {});
    return { child };
  }
  for (let i = 0; i < input.n; i++) await chidori.mark("m", { i, pad });
  if (input.ask) {
    const answer = await chidori.input("more?");
    for (let i = 0; i < input.more; i++) await chidori.mark("more", { i, pad });
    return { n: input.n, answer };
  }
  return { n: input.n };
});
