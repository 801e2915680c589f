// tests/replay_ahead/marks.js: N marks (input n), then a question.
export default async function (input, chidori) {
  for (let i = 0; i < input.n; i++) await chidori.mark("tick");
  return { answer: await chidori.input("go on?") };
}
