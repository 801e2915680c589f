// tests/branch/strategies/style.ts — one variant of fork.ts: a draft of `words` words.
import { chidori, run } from "chidori:agent";

run(async (input: { topic: string; words: number }) => {
  await chidori.log(`writing ${input.words} words`);
  return { draft: Array.from({ length: input.words }, (_, i) => `${input.topic}-${i}`).join(" ") };
});
