// tests/npm/more_agent.js — the chidori agent around more.js.
import { run } from "chidori:agent";
import { results } from "./more.js";

run(async () => results());
