// bench/isolation's and bench/effect-ab's effect round trip: N recorded calls (no output), N from
// the input. op "mark" (the default) is a trace op, whose record may wait and whose isolated call
// goes on without a round trip; op "template" renders a one-line template: a recorded call of an
// op that is not, so every call pays the whole round trip (and its record its own write).
export default async function (input, chidori) {
  const n = input.n ? Number(input.n) : 10000;
  if (input.op === "template") {
    for (let i = 0; i < n; i++) await chidori.template("{{ t }}", { t: "tick" });
  } else {
    for (let i = 0; i < n; i++) await chidori.mark("tick");
  }
  return { n };
}
