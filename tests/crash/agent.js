// tests/crash/agent.js — the agent tests/cases_crash.py kills: input.n rounds of recorded
// effects (a mark, a step, a memory write, a workspace write, an input.big-byte record every input.big_every
// rounds, an MCP tool call when input.tool is set), with a pause on input() at round input.pause_at, so a kill lands among every kind of
// record. Its output is a function of its input and the answer alone.
import { run } from "chidori:agent";

run(async (input, chidori) => {
  const tag = input.tag ?? "t";
  let acc = 0;
  let answer = null;
  for (let i = 0; i < input.n; i++) {
    await chidori.mark("round", { tag, i });
    acc += await chidori.step(`s${i}`, async () => (i * 7) % 11);
    if (i % 3 === 0) await chidori.memory.set(`${tag}-${i}`, { i, acc });
    if (i % 4 === 1) await chidori.workspace.write(`${tag}-${i}.txt`, `round ${i}: ${acc}`);
    if (input.big_every && i % input.big_every === 0) await chidori.mark("big", { pad: "b".repeat(input.big ?? 300000) });
    if (input.tool) await chidori.tool("counter__count", { n: 1, tag, i });
    if (i === input.pause_at) answer = await chidori.input(`round ${i}: go on?`);
  }
  return { tag, acc, answer, rounds: input.n };
});
