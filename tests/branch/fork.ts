// tests/branch/fork.ts — an agent that forks as the original chidori's branching examples do:
// a shared prefix, a two-way chidori.branch whose sources name files of the folder from its root,
// a log per outcome. Its run in the original's folder shape is original_folder/ (written by us).
import { chidori, run, type BranchOutcome } from "chidori:agent";

run(async (input: { topic?: string }) => {
  const topic = input.topic ?? "release notes";
  await chidori.log(`prefix for ${topic}`);
  const outcomes: BranchOutcome[] = await chidori.branch([
    { label: "terse", source: "strategies/style.ts", input: { topic, words: 3 } },
    { label: "wordy", source: "strategies/style.ts", input: { topic, words: 9 } },
  ]);
  for (const o of outcomes) await chidori.log(`branch ${o.label}: ${o.status}`);
  return { picked: outcomes[0].label, outputs: outcomes.map((o) => (o.status === "completed" ? o.output : null)) };
});
