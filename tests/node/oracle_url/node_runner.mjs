// tests/node/oracle_url/node_runner.mjs — the oracle side: Node runs probe.mjs over the corpus
// file named on the command line and prints the answer as JSON.
import { readFileSync } from "node:fs";
import { agent } from "./probe.mjs";

const corpus = JSON.parse(readFileSync(process.argv[2], "utf8"));
process.stdout.write(JSON.stringify(await agent(corpus)));
