// tests/npm/corpus_node.mjs — Node running the same corpus.js, for comparison.
import { results } from "./corpus.js";
console.log(JSON.stringify(await results()));
