// tests/npm/sdk_agent.js — the chidori agent around sdk.js; input {base}.
import { run } from "chidori:agent";
import { results } from "./sdk.js";

run(async (input) => results(input.base));
