// oracle.mjs — compares chidori's C TypeScript eraser (ts-strip) with
// TypeScript's own transpileModule on every file in corpus/.
//
// For each corpus/*.ts:
//   1. transpile with ts.transpileModule (module ESNext, target ES2022);
//   2. strip with the ts-strip binary (argv[2] or $TS_STRIP);
//   3. run both outputs as .mjs in Node and compare stdout, the thrown
//      error (name + message) and the exit code;
//   4. check positions: the output has the same lines as the source, and every
//      line is the source line with characters replaced by spaces (or a `;`
//      that ends an erased statement), except lines inside constructs that
//      must be rewritten (enum, value namespace, constructor parameter
//      properties and the class body line where their fields are declared,
//      `import A = N.B`).  So every surviving token keeps its line and column.
// Files named err_*.ts must be rejected: ts-strip exits 1 and prints
// `FILE:LINE:COL: message`; the first line of such a file is
// `// error: LINE:COL`.
//
// Prints one line per failure, then exactly one line `N passed, N failed`.
import ts from "typescript";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const stripBin = process.argv[2] || process.env.TS_STRIP;
if (!stripBin) {
  console.log("usage: node oracle.mjs PATH_TO_TS_STRIP   (or set TS_STRIP)");
  console.log("0 passed, 1 failed");
  process.exit(1);
}
const corpusDir = join(here, "corpus");
const only = process.argv[3];
const files = readdirSync(corpusDir).filter((f) => f.endsWith(".ts") && (!only || f.includes(only))).sort();
const work = mkdtempSync(join(tmpdir(), "ts-oracle-"));

// Runs a module in a fresh Node and reports what it printed and threw.
const runner = join(work, "runner.mjs");
writeFileSync(
  runner,
  `const target = process.argv[2];
process.on("unhandledRejection", (e) => { console.log("UNHANDLED:", e && e.name, e && e.message); process.exitCode = 3; });
try { await import(target); } catch (e) { console.log("THROWN:", e && e.name, e && e.message); process.exitCode = 2; }
`,
);

function runModule(code, name) {
  const file = join(work, name);
  writeFileSync(file, code);
  const r = spawnSync(process.execPath, [runner, pathToFileURL(file).href], {
    encoding: "utf8",
    timeout: 20000,
    cwd: work,
  });
  const out = (r.stdout || "").replaceAll(work, "<tmp>");
  return { out, status: r.status, signal: r.signal };
}

const LINE_SPLIT = /\r\n|\r|\n|\u2028|\u2029/;

// Lines that may legitimately differ from a blanking of the source.
function rewritableLines(src, fileName) {
  const sf = ts.createSourceFile(fileName, src, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const allowed = new Set();
  const lineOf = (pos) => sf.getLineAndCharacterOfPosition(pos).line;
  const allow = (from, to) => { for (let l = lineOf(from); l <= lineOf(to); l++) allowed.add(l); };
  const hasMod = (n, k) => (ts.getModifiers?.(n) ?? n.modifiers ?? []).some((m) => m.kind === k);
  const visit = (node) => {
    if (ts.isEnumDeclaration(node) && !hasMod(node, ts.SyntaxKind.DeclareKeyword)) allow(node.getStart(sf), node.end);
    if (ts.isModuleDeclaration(node) && !hasMod(node, ts.SyntaxKind.DeclareKeyword)) allow(node.getStart(sf), node.end);
    if (ts.isImportEqualsDeclaration(node)) allow(node.getStart(sf), node.end);
    if ((ts.isClassDeclaration(node) || ts.isClassExpression(node))) {
      const ctor = node.members.find((m) => ts.isConstructorDeclaration(m) && m.body);
      if (ctor && ctor.parameters.some((p) => ts.isParameterPropertyDeclaration(p, ctor))) {
        allow(ctor.getStart(sf), ctor.end);
        const brace = node.members.pos; // just after the class body's `{`
        allow(brace - 1, brace - 1);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return allowed;
}

function checkPositions(src, out, fileName) {
  const s = src.split(LINE_SPLIT), o = out.split(LINE_SPLIT);
  if (s.length !== o.length) return `line count ${o.length} != source ${s.length}`;
  const allowed = rewritableLines(src, fileName);
  for (let l = 0; l < s.length; l++) {
    const a = s[l], b = o[l];
    let ok = a.length === b.length;
    for (let c = 0; ok && c < b.length; c++) ok = b[c] === a[c] || b[c] === " " || (b[c] === ";" && a[c] !== "\n");
    if (!ok && !allowed.has(l)) return `line ${l + 1} is not an erasure of the source:\n    src: ${a}\n    out: ${b}`;
  }
  return null;
}

let passed = 0, failed = 0;
const fail = (name, why) => { failed++; console.log(`FAIL ${name}: ${why}`); };

for (const f of files) {
  const path = join(corpusDir, f);
  const src = readFileSync(path, "utf8");
  const stripped = spawnSync(resolve(stripBin), [path], { encoding: "utf8", timeout: 20000 });

  if (f.startsWith("err_")) {
    const want = /^\/\/ error: (\d+:\d+)/.exec(src);
    const first = (stripped.stderr || "").split("\n")[0];
    const m = /^.*?:(\d+:\d+): (.+)$/.exec(first);
    if (stripped.status !== 1) fail(f, `expected exit 1, got ${stripped.status}`);
    else if (!m) fail(f, `no FILE:LINE:COL message: ${first}`);
    else if (want && want[1] !== m[1]) fail(f, `error at ${m[1]}, expected ${want[1]} (${m[2]})`);
    else passed++;
    continue;
  }

  const tsOut = ts.transpileModule(src, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    reportDiagnostics: true,
    fileName: f,
  });
  if (tsOut.diagnostics?.length) {
    fail(f, "corpus file has TypeScript syntax errors: " +
      tsOut.diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, " ")).join("; "));
    continue;
  }
  if (stripped.status !== 0) {
    fail(f, `ts-strip failed: ${(stripped.stderr || "").split("\n")[0]}`);
    continue;
  }
  const want = runModule(tsOut.outputText, f.replace(/\.ts$/, ".tsc.mjs"));
  const got = runModule(stripped.stdout, f.replace(/\.ts$/, ".strip.mjs"));
  if (want.signal || got.signal) { fail(f, `timed out (tsc ${want.signal}, strip ${got.signal})`); continue; }
  if (want.out !== got.out || want.status !== got.status) {
    const wl = want.out.split("\n"), gl = got.out.split("\n");
    let k = 0;
    while (k < wl.length && wl[k] === gl[k]) k++;
    fail(f, `output differs at line ${k + 1}: tsc ${JSON.stringify(wl[k])} vs strip ${JSON.stringify(gl[k])}` +
      (want.status !== got.status ? ` (exit ${want.status} vs ${got.status})` : ""));
    continue;
  }
  const pos = checkPositions(src, stripped.stdout, f);
  if (pos) { fail(f, pos); continue; }
  passed++;
}

rmSync(work, { recursive: true, force: true });
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
