// Digests of fixed contexts, compared by cases_context.py with vectors computed from the
// original's definition of request_digest; also that digest() and estimateTokens() are plain values.
import { chidori, run, defineTool } from "chidori:agent";

const add = defineTool({
  name: "add",
  description: "Adds.",
  parameters: { type: "object", properties: { b: { type: "number" }, a: { type: "number" } }, required: ["a"] },
  run: ({ a, b }) => a + b,
});

run(async () => {
  const a = chidori.context({ system: "S1" }).system("S2").doc("d", "D \u00e9\u2028").cacheBreakpoint("1h").user("q");
  const b = chidori.context().tools([add]).user("hi").assistant("yo").toolResult("t1", "42", true);
  const asked = await chidori.context().user("x").prompt();
  const e = chidori.context().system("only");
  const digestA = a.digest();
  return {
    A: digestA,
    B: b.digest({ model: "m-x", temperature: 1, maxTokens: 100, cache: "1h" }),
    D: asked.context.digest({ cache: false }),
    E: e.digest({ cache: false }),
    plain: typeof digestA === "string" && typeof a.estimateTokens() === "number",
    sliced: digestA.slice(0, 12),
    estimate: a.estimateTokens(),
    shared: a.digest() === digestA,
  };
});
