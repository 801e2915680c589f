// tests/npm/more_node.mjs — Node running the same more.js, for comparison.
import { results } from "./more.js";
console.log(JSON.stringify(results()));
