// bench/isolation's effect round trip: N recorded marks (no output), N from the input.
export default async function (input, chidori) {
  const n = input.n ? Number(input.n) : 10000;
  for (let i = 0; i < n; i++) await chidori.mark("tick");
  return { n };
}
