import { chidori, run, type JsonObject } from "data:text/javascript,export const chidori = { name: 'chidori' }; export function run(f) { return f(); }";
const input: JsonObject = { q: "hello" };
const out = run((): JsonObject => ({ agent: chidori.name, echo: input.q as string }));
console.log(JSON.stringify(out));
