// examples/hello.js — the smallest agent: log through the host, return JSON.
import { run } from "chidori:agent";

run(async (input, chidori) => {
  const name = input.name ?? "world";
  await chidori.log("Saying hello", { name });
  return { greeting: `Hello, ${name}!` };
});
