// tests/replay_ahead/templates.js: N template renders (input n: a recorded op that is not a trace
// op, so a replay answers it ahead only from an offer), then a question.
export default async function (input, chidori) {
  for (let i = 0; i < input.n; i++) await chidori.template("t{{ i }}", { i });
  return { answer: await chidori.input("go on?") };
}
