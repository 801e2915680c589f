// examples/research.js — a prompt built from a template file, the reply saved to the workspace,
// and a nested agent that counts the words. Needs a provider; for a dry run:
//   CHIDORI_TEST_LLM_RESPONSE="A short brief." chidori run examples/research.js -i topic=otters
import { run } from "chidori:agent";

run(async (input, chidori) => {
  const topic = input.topic ?? "sea otters";
  const prompt = await chidori.template("prompts/brief.txt", { topic, points: ["habitat", "diet"] });
  const brief = await chidori.prompt(prompt, { system: "You write crisp briefs.", maxTokens: 300 });
  const saved = await chidori.workspace.write(`briefs/${topic.replace(/\W+/g, "-")}.md`, brief);
  const stats = await chidori.callAgent("agents/wordcount.js", { text: brief });
  return { topic, prompt, brief, saved: saved.path, words: stats.words };
});
