// tests/npm/real_node.mjs — Node running the same real.js, for comparison.
import { results } from "./real.js";
console.log(JSON.stringify(results()));
