// tests/serve_park/agent.js — the agent of tests/cases_serve_park.py: input.marks recorded marks,
// then one input (two with input.twice), two identical workspace writes (input.write), then a mark
// with the answers; or (input.signal) marks, then one signal of that name (or list of names), with
// input.timeout as its timeoutMs, twice with input.twice; or (input.fetcher) an actor that fetches
// while the run waits for its input. EDITED is what the case that edits this file while a run is
// parked changes.
import { run } from "chidori:agent";

const EDITED = false;

run(async (input, chidori) => {
  if (input.fetcher) { // an actor at work while the run waits: such a run is not parked
    const actor = await chidori.actors.spawn("actors/fetcher.js", input.fetcher);
    const first = await chidori.input("First?");
    return { first, actor: await actor.join() };
  }
  for (let i = 0; i < (input.marks ?? 0); i++) await chidori.mark("tick", { i });
  if (input.signal) { // a signal pause (parked as an input's is), once or twice
    const opts = input.timeout ? { timeoutMs: input.timeout } : undefined;
    const first = await chidori.signal(input.signal, opts);
    const second = input.twice ? await chidori.signal(input.signal, opts) : null;
    await chidori.mark("signalled", { first, second });
    return { first, second, edited: EDITED };
  }
  const first = await chidori.input("First?");
  let x = 0; // input.spin: work after the first answer (a run that is still going when its node dies)
  for (let i = 0; i < (input.spin ?? 0); i++) x = (x + i) % 1000003;
  const second = input.twice ? await chidori.input("Second?") : null;
  if (input.write) { // under the supervised profile, a write waits for an approval; the same one again does not
    await chidori.workspace.write("parked.txt", first);
    await chidori.workspace.write("parked.txt", first);
  }
  await chidori.mark("answered", { first, second });
  return { first, second, edited: EDITED };
});
