// tests/node/idna/node_runner.mjs — the oracle side: Node runs probe.mjs over the rows file named
// on the command line and prints the answer as JSON.
import { readFileSync } from "node:fs";
import { agent } from "./probe.mjs";

process.stdout.write(JSON.stringify(await agent(JSON.parse(readFileSync(process.argv[2], "utf8")))));
