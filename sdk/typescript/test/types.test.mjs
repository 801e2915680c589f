// types.test.mjs — the hand-written declarations type-check what they should and reject what they
// should not, with the TypeScript compiler the repository's tests install (tests/ts/node_modules;
// scripts/test-deps.sh). Skipped when it is not installed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const sdk = join(here, "..");
const repo = join(sdk, "..", "..");
let ts = null;
try {
  ts = createRequire(join(repo, "tests", "ts", "package.json"))("typescript");
} catch { /* not installed */ }

function diagnostics(files) {
  const program = ts.createProgram(files, {
    strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler, lib: ["lib.es2022.d.ts"],
    types: [], skipLibCheck: true,
  });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file ? `${d.file.fileName.split("/").pop()}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}` : "";
    return `${where} TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
  });
}

test("the test agent and a client program type-check", { skip: !ts && "typescript is not installed in tests/ts" }, () => {
  const diags = diagnostics([join(sdk, "agent.d.ts"), join(repo, "sdk", "testdata", "agent.ts"), join(here, "fixtures", "client_usage.ts")]);
  assert.deepEqual(diags, []);
});

test("a wrong agent is rejected on every marked line", { skip: !ts && "typescript is not installed in tests/ts" }, () => {
  const diags = diagnostics([join(sdk, "agent.d.ts"), join(here, "fixtures", "bad_agent.ts")]);
  const lines = [...new Set(diags.map((d) => Number(d.split(" ")[0].split(":")[1])))].sort((a, b) => a - b);
  assert.deepEqual(lines, [5, 6, 7, 8, 9], diags.join("\n"));
});
