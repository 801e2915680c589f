// bench/npm/agent.js — imports zod and lodash-es (about 650 ES module files) and uses both.
import { run } from "chidori:agent";
import { z } from "zod";
import { chunk } from "lodash-es";

run(async () => ({ ok: z.object({ n: z.number() }).safeParse({ n: 1 }).success, chunks: chunk([1, 2, 3], 2).length }));
