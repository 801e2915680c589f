// bench/npm/node.mjs — the same imports and work under Node, for comparison.
import { z } from "zod";
import { chunk } from "lodash-es";

console.log(JSON.stringify({ ok: z.object({ n: z.number() }).safeParse({ n: 1 }).success, chunks: chunk([1, 2, 3], 2).length }));
