// bench/resume's agent: N recorded marks (N from the input), then a question; the resume replays
// the N marks from the log and answers the question.
export default async function (input, chidori) {
  const n = input.n ? Number(input.n) : 1600;
  for (let i = 0; i < n; i++) await chidori.mark("tick");
  const answer = await chidori.input("go on?");
  return { n, answer };
}
