// bench/resume's agent: N recorded marks (N from the input), then a question; the resume replays
// the N marks from the log and answers the question. With input.signal it waits for the signal
// "go" instead (bench/serve-resume's BENCH_SIGNAL=1), and the signal resumes it.
export default async function (input, chidori) {
  const n = input.n ? Number(input.n) : 1600;
  for (let i = 0; i < n; i++) await chidori.mark("tick");
  const answer = input.signal ? (await chidori.signal("go")).payload : await chidori.input("go on?");
  return { n, answer };
}
