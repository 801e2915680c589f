// examples/approval.ts — a TypeScript agent that drafts, asks a human, and remembers.
// Try: chidori run examples/approval.ts -i item=laptop     (pauses: answer with chidori resume)
import { run, type JsonObject } from "chidori:agent";

interface Request { item?: string; budget?: number }
type Decision = "yes" | "no";

run(async (input: Request, chidori): Promise<JsonObject> => {
  const item = input.item ?? "a coffee machine";
  const quote = await chidori.step("quote", () => Math.round(100 + Math.random() * 900));
  const answer = (await chidori.input(`Buy ${item} for $${quote}?`, { choices: ["yes", "no"], default: "no" })) as Decision;
  const approved = answer === "yes";
  const history = ((await chidori.memory.get("purchases")) as string[] | null) ?? [];
  if (approved) await chidori.memory.set("purchases", [...history, item]);
  await chidori.log("decision", { item, quote, approved });
  return { item, quote, approved, previous: history.length };
});
