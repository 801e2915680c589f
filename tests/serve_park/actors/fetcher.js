// tests/serve_park/actors/fetcher.js — an actor of tests/serve_park/agent.js: input.n slow fetches
// of the counting server (tests/http/server.py), so its work shows from outside while it lives.
import { run } from "chidori:agent";

run(async (input) => {
  for (let i = 0; i < input.n; i++) await fetch(`${input.base}/slow?ms=${input.ms}&i=${i}`);
  return { fetched: input.n };
});
