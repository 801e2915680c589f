// tests/serve/agent.js — the agent tests/cases_serve.py serves: what it does is chosen by
// input.mode, so one server can show every session status.
import { run } from "chidori:agent";

run(async (input, chidori) => {
  switch (input.mode) {
    case "input": {
      await chidori.log("asking");
      const answer = await chidori.input("Ship it?", { choices: ["yes", "no"] });
      await chidori.mark("answered", { answer });
      return { answer };
    }
    case "input-write": {
      await chidori.log("asking");
      const answer = await chidori.input("Ship it?", { choices: ["yes", "no"] });
      await chidori.workspace.write("shipped.txt", answer);
      return { answer };
    }
    case "write": {
      await chidori.log("writing");
      await chidori.workspace.write("out.txt", "hello");
      const again = await chidori.workspace.write("out.txt", "hello");
      return { wrote: true, again };
    }
    case "slow": {
      // counter__count is an MCP tool that logs each call it performs (tests/mcp/counter.py)
      const first = await chidori.tool("counter__count", { n: 1 });
      let x = 0;
      for (let i = 0; i < input.loops; i++) x = (x + i) % 1000003;
      const second = await chidori.tool("counter__count", { n: 2 });
      return { first, second, x };
    }
    case "nested": {
      await chidori.log("calling the child");
      const child = await chidori.callAgent("child.js", { loops: input.loops });
      return { child };
    }
    case "spin": {
      let x = 0;
      for (let i = 0; i < input.loops; i++) x = (x + i) % 1000003;
      await chidori.log("spun");
      return { x };
    }
    case "remember": {
      const ns = { namespace: "serve-test" };
      const before = await chidori.memory.get(input.key, ns);
      await chidori.memory.set(input.key, { n: input.n }, ns);
      const got = await chidori.memory.get(input.key, ns);
      const all = await chidori.memory.list(ns);
      const gone = input.forget ? await chidori.memory.delete(input.key, ns) : null;
      return { before, got, keys: all.map((e) => e.key), gone };
    }
    case "fail":
      throw new Error("failed on purpose");
    default: {
      await chidori.log("hello", { name: input.name ?? "world" });
      await chidori.mark("greeted");
      return { greeting: `Hello, ${input.name ?? "world"}!` };
    }
  }
});
