// tests/npm/sdk_node.mjs — Node running the same sdk.js against the same fake provider.
import { results } from "./sdk.js";
console.log(JSON.stringify(await results(process.argv[2])));
