// tests/npm/corpus_agent.js — the chidori agent around corpus.js.
import { run } from "chidori:agent";
import { results } from "./corpus.js";

run(async () => results());
