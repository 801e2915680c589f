// tests/load/agent.js — the agent tests/load/load.py serves.
//
// Default ("hello"): one log record and a greeting, the smallest session that still goes through
// the host, the call log and the database.
// input.hits = N with input.base: N fetches of BASE/hit/<tag>/<k> (k = 1..N), one after the other,
// against the load driver's counting server; each answer is how many times that URL has been
// reached so far. The driver compares those counts, the session's call log and its output after a
// kill -9 of the server: every call performed exactly once, none missing.
// input.spin: one log record, then a loop that never ends (with CHIDORI_JS_OP_BUDGET=0), for the
// tests that kill a session's worker from outside (tests/cases_serve_faults.py).
import { run } from "chidori:agent";

run(async (input, chidori) => {
  if (input.spin) {
    await chidori.log("spinning");
    for (;;) {}
  }
  if (!input.hits) {
    await chidori.log("hello", { n: input.n });
    return { greeting: `Hello, ${input.n}!` };
  }
  const seen = [];
  for (let k = 1; k <= input.hits; k++) {
    const r = await fetch(`${input.base}/hit/${input.tag}/${k}`);
    if (r.status !== 200) throw new Error(`hit ${k}: status ${r.status}`);
    seen.push(Number(await r.text()));
  }
  return { tag: input.tag, seen };
});
