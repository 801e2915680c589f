// tests/npm/real_agent.js — the chidori agent around real.js.
import { run } from "chidori:agent";
import { results } from "./real.js";

run(async () => results());
