// The nested agent of tests/otel/agent.js: one prompt of its own.
export default async function (input, chidori) {
  const reply = await chidori.prompt("Say goodbye about " + input.topic + ".", { model: "gpt-4o-mini" });
  return { reply: reply };
}
