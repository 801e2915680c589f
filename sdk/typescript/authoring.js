// authoring.js — `chidori` and `run` as the package exports them, for agent files written against
// the original SDK's import (`import { chidori, run } from "<the SDK package>"`). They do nothing
// here: inside the runtime an agent imports them from "chidori:agent", which the runtime
// provides. Touching them outside the runtime throws an error that says so.

const OUTSIDE = "only available inside the chidori runtime: an agent file imports `chidori` and `run` from \"chidori:agent\" and is run by `chidori run` or `chidori serve`";

export const chidori = new Proxy(Object.freeze({}), {
  get(_target, key) {
    if (typeof key === "symbol") return undefined; // inspection (util.inspect, Symbol.toPrimitive)
    throw new Error(`chidori.${String(key)} is ${OUTSIDE}`);
  },
});

export function run() {
  throw new Error(`run() is ${OUTSIDE}`);
}
