// bench/startup's agent: the smallest complete run (module load, entrypoint, JSON output).
import { run } from "chidori:agent";
run(async (input) => ({ greeting: `Hello, ${input.name ?? "world"}!` }));
