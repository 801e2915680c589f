import { run } from "chidori:agent";
import { z } from "zod";
import { chunk } from "lodash-es";
run(async () => ({ ok: z.string().safeParse("x").success, c: chunk([1, 2, 3], 2).length }));
