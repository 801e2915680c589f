// prompt → (the model calls an MCP tool) → prompt → input → log. Used by cases_effects.py.
export default async function (input, chidori) {
  const reply = await chidori.prompt("What does the counter say after adding 5?", {
    system: "You are terse.",
    tools: ["counter__count"],
  });
  const answer = await chidori.input("Ship it?", { choices: ["yes", "no"] });
  await chidori.log("decided", { answer });
  return { reply, approved: answer === "yes" };
}
