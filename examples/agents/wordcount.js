// examples/agents/wordcount.js — a nested agent (called by research.js through callAgent).
export default async function (input, chidori) {
  const words = String(input.text ?? "").split(/\s+/).filter(Boolean).length;
  await chidori.log("counted", { words });
  return { words };
}
