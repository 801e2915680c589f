/// <reference path="../typescript/agent.d.ts" />
// agent.ts — the agent the SDK and dashboard tests serve. `input.mode` picks what it does:
//   (none)  greets: a few records, then completed
//   "ask"   asks for a name with chidori.input: the session pauses until resumed
//   "write" writes a workspace file: a gated effect, so under the `supervised` profile the
//           session waits in awaitingapproval until approved
//   "fail"  throws
//   "signal" waits for a `review` signal (chidori.signal): the session pauses until one is sent
// Its input is checked against a schema first (mode one of the above, name a string, nothing
// else): a session with any other input fails before it starts (POST /sessions answers 400).
// It is also type-checked against sdk/typescript/agent.d.ts (sdk/typescript/test/types.test.mjs).
import { run, type JsonObject } from "chidori:agent";

interface Input {
  mode?: "ask" | "write" | "fail" | "signal";
  name?: string;
}

const inputSchema = {
  type: "object",
  additionalProperties: false,
  properties: { mode: { enum: ["ask", "write", "fail", "signal"] }, name: { type: "string" } },
};

run(async (input: Input, chidori): Promise<JsonObject> => {
  await chidori.log("start", { mode: input.mode ?? "hello" });
  await chidori.mark("begin");
  const n = await chidori.step("count", async () => 2);
  switch (input.mode) {
    case "ask": {
      const answer = await chidori.input("Your name?", { default: undefined });
      await chidori.log("answered", { answer });
      return { greeting: `Hello, ${answer}!`, n };
    }
    case "write": {
      const written = await chidori.workspace.write("out.txt", "hello from the agent\n");
      await chidori.log("wrote", { bytes: written.bytes });
      return { wrote: written.path, bytes: written.bytes };
    }
    case "signal": {
      const review = await chidori.signal<{ decision: string }>("review");
      return { decision: review.payload?.decision ?? null, from: review.from, n };
    }
    case "fail":
      throw new Error("asked to fail");
    default:
      await chidori.mark("end", { n });
      return { greeting: `Hello, ${input.name ?? "world"}!`, n };
  }
}, { inputSchema });
