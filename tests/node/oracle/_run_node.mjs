// tests/node/oracle/_run_node.mjs — runs one oracle module under Node and prints its agent()
// result the way `chidori run` prints an agent's output (pretty JSON, 2-space indent).
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";

const file = resolve(process.argv[2]);
process.chdir("/"); // a chidori run's working directory
const mod = await import(pathToFileURL(file).href);
const result = await mod.agent({});
process.stdout.write(JSON.stringify(result === undefined ? null : result, null, 2) + "\n");
