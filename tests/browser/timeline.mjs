// timeline.mjs — the dashboard's drawings in a real browser (Debian's Chromium, headless, driven
// by playwright-core): a session's timeline of calls and the overview of sessions by status.
//
// A real `chidori serve` (untrusted policy, the default) runs an agent of our own that makes a
// prompt to tests/providers/fake_llm.py (a local stand-in that answers with token usage), a fetch
// the policy denies, a workspace read and a nested agent (a log and a prompt). The page must draw
// one bar per record of the session's checkpoint, each with the class of its kind, the nested
// agent's calls a level deeper and indented, the tokens of both prompts summed; the overview one
// segment per (time bucket, status) whose counts add up to the sessions, one per status made
// (completed, failed, paused). Screenshot: build/artifacts/dashboard-timeline.png.
//
// Usage: node tests/browser/timeline.mjs CHIDORI_BINARY
// Exit 0 all passed, 1 a check failed, 77 cannot run here (the reason on the last line).
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { createInterface } from "node:readline";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { apiClient, assert, check, finish, launchChromium, newPage, preflight, startServe } from "./harness.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "..", "..");
const binary = resolve(process.argv[2] || join(repo, "build", "chidori"));
const chromiumPath = process.env.CHIDORI_TEST_CHROMIUM || "/usr/bin/chromium";
const artifact = join(repo, "build", "artifacts", "dashboard-timeline.png");
const KEY = "timeline-key";

const MAIN = `export default async (input, chidori) => {
  if (input.fail) throw new Error("asked to fail");
  if (input.ask) await chidori.input("Go on?");
  await chidori.log("start", {});
  const a = await chidori.prompt("first question", { model: "m-1" });
  let denied = false;
  try { await fetch("https://example.com/"); } catch (e) { denied = true; }
  const notes = await chidori.workspace.read("notes.txt");
  const child = await chidori.callAgent("child.js", { n: 1 });
  return { a, denied, child, notes: typeof notes };
};
`;
const CHILD = `export default async (input, chidori) => {
  await chidori.log("in the child", { n: input.n });
  const b = await chidori.prompt("child question", { model: "m-1" });
  return { b };
};
`;
const SCRIPT = [
  { text: "one", model: "m-1", usage: { input: 11, output: 7 }, delayMs: 150 },
  { text: "two", model: "m-1", usage: { input: 5, output: 3 }, delayMs: 150 },
];

const chromium = await preflight(binary, chromiumPath);

const dir = mkdtempSync(join(tmpdir(), "chidori-timeline-"));
writeFileSync(join(dir, "main.js"), MAIN);
writeFileSync(join(dir, "child.js"), CHILD);
writeFileSync(join(dir, "notes.txt"), "some notes\n");
writeFileSync(join(dir, "script.json"), JSON.stringify(SCRIPT));

// the provider stand-in: its first stdout line is its port; it exits when its stdin closes
const llm = spawn("python3", [join(repo, "tests", "providers", "fake_llm.py"), join(dir, "script.json")],
  { stdio: ["pipe", "pipe", "inherit"] });
const llmPort = await new Promise((ok, fail) => {
  const t = setTimeout(() => fail(new Error("fake_llm.py did not start")), 20000);
  createInterface({ input: llm.stdout }).once("line", (l) => { clearTimeout(t); ok(Number(l)); });
  llm.on("exit", (c) => fail(new Error(`fake_llm.py exited ${c}`)));
});

const serve = await startServe(binary, dir, "main.js",
  { CHIDORI_API_KEY: KEY, OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: `http://127.0.0.1:${llmPort}/v1`,
    // prices for the cost: a short prefix and a longer one (the longer must win), dollars per million
    CHIDORI_PRICING: JSON.stringify({ m: { input_per_mtok: 1000, output_per_mtok: 1000 },
      "m-": { input_per_mtok: 2, output_per_mtok: 10 } }) });
const url = serve.url;
const api = apiClient(url, KEY);

async function stopAll() {
  await serve.stop();
  llm.stdin.end();
  rmSync(dir, { recursive: true, force: true });
}

const KIND = (fn) => (["prompt", "tool", "http", "workspace", "input"].includes(fn) ? fn : "other");

let browser;
try {
  const main = await api("POST", "/sessions", { input: {}, session_id: "busy" });
  await api("POST", "/sessions", { input: { fail: true }, session_id: "broken" });
  await api("POST", "/sessions", { input: { ask: true }, session_id: "asking" });
  const checkpoint = await api("GET", "/sessions/busy/checkpoint");
  const calls = checkpoint.call_log;

  await check("the session ran its calls (prompt, denied fetch, read, nested agent)", async () => {
    assert(main.status === "completed", `busy is ${main.status}: ${main.error}`);
    const fns = calls.map((r) => r.function);
    for (const f of ["prompt", "http", "workspace", "call_agent"]) assert(fns.includes(f), `no ${f} record: ${fns}`);
    assert(calls.some((r) => r.parent_seq != null), "no nested record");
  });

  browser = await launchChromium(chromium, chromiumPath, stopAll);
  const { page, pageErrors } = await newPage(browser);
  await page.goto(`${url}/ui`);
  await page.fill("#api-key", KEY);
  await page.click("#save-key");
  await page.waitForSelector('#sessions tr[data-id="busy"]', { timeout: 10000 });

  await check("the timeline draws one bar per call, coloured by kind", async () => {
    await page.click('#sessions tr[data-id="busy"]');
    await page.waitForFunction((n) => document.querySelectorAll("#timeline rect.tl-bar").length === n, calls.length,
      { timeout: 10000 });
    const bars = await page.$$eval("#timeline rect.tl-bar", (rs) => rs.map((r) => ({
      seq: Number(r.dataset.seq), kind: r.dataset.kind, depth: Number(r.dataset.depth), cls: r.getAttribute("class"),
      x: Number(r.getAttribute("x")), w: Number(r.getAttribute("width")),
    })));
    for (const rec of calls) {
      const bar = bars.find((b) => b.seq === rec.seq);
      assert(bar, `no bar for seq ${rec.seq}`);
      assert(bar.kind === KIND(rec.function) && bar.cls.split(" ").includes(`kind-${KIND(rec.function)}`),
        `seq ${rec.seq} (${rec.function}) drawn as ${bar.cls}`);
      assert(bar.w >= 2 && bar.x >= 0, `seq ${rec.seq}: x ${bar.x} width ${bar.w}`);
    }
    const kinds = new Set(bars.map((b) => b.kind));
    for (const k of ["prompt", "http", "workspace", "other"]) assert(kinds.has(k), `no ${k} bar: ${[...kinds]}`);
    const denied = calls.find((r) => r.function === "http");
    assert(bars.find((b) => b.seq === denied.seq).cls.includes("error"), "the denied fetch is not marked as an error");
    // bars are placed by start time: a later call starts no further left
    const bySeq = (s) => bars.find((b) => b.seq === s);
    const first = calls.find((r) => r.function === "log" && r.parent_seq == null), read = calls.find((r) => r.function === "workspace");
    assert(bySeq(read.seq).x >= bySeq(first.seq).x, "the read is drawn before the first call");
  });

  await check("a nested agent's calls are a level deeper and indented", async () => {
    const nested = calls.filter((r) => r.parent_seq != null).map((r) => r.seq);
    const rows = await page.$$eval("#timeline g.tl-row", (gs) => gs.map((g) => ({
      seq: Number(g.dataset.seq), depth: Number(g.dataset.depth),
      labelX: Number(g.querySelector("text.tl-label").getAttribute("x")),
      label: g.querySelector("text.tl-label").textContent,
    })));
    const top = rows.filter((r) => !nested.includes(r.seq));
    const deep = rows.filter((r) => nested.includes(r.seq));
    assert(deep.length === nested.length && deep.length >= 2, `nested rows: ${JSON.stringify(deep)}`);
    assert(deep.every((r) => r.depth === 1) && top.every((r) => r.depth === 0), JSON.stringify(rows));
    const topX = Math.max(...top.map((r) => r.labelX));
    assert(deep.every((r) => r.labelX > topX), `not indented: ${JSON.stringify(rows)}`);
    assert(rows.some((r) => r.label.includes("prompt m-1")), `labels: ${rows.map((r) => r.label)}`);
  });

  await check("the tokens of every prompt (the nested one too) are summed", async () => {
    const d = await page.$eval("#timeline-summary", (s) => ({ ...s.dataset, text: s.textContent }));
    assert(d.tokensIn === "16" && d.tokensOut === "10", JSON.stringify(d));
    assert(d.text.includes("tokens 16 in / 10 out") && d.text.includes(`${calls.length} calls`), d.text);
  });

  await check("the cost of the prompts, priced by the longest matching prefix of CHIDORI_PRICING", async () => {
    const pricing = await api("GET", "/pricing");
    assert(pricing.given === true && pricing.prices.map((p) => p.model).join() === "m-,m", JSON.stringify(pricing));
    await page.waitForFunction(() => document.querySelector("#timeline-summary").dataset.cost !== undefined, null, { timeout: 10000 });
    const d = await page.$eval("#timeline-summary", (s) => ({ ...s.dataset, text: s.textContent }));
    const want = (16 * 2 + 10 * 10) / 1e6; // both prompts at the "m-" row's prices
    assert(Math.abs(Number(d.cost) - want) < 1e-12, `cost ${d.cost}, want ${want}`);
    assert(d.text.includes("$0.000132") && !d.text.includes("$0.000132+"), d.text);
  });

  await check("the overview stacks the sessions by status", async () => {
    await page.waitForFunction(() => document.querySelectorAll("#overview rect.ov-bar").length > 0, null, { timeout: 10000 });
    const segs = await page.$$eval("#overview rect.ov-bar", (rs) => rs.map((r) => ({
      status: r.dataset.status, count: Number(r.dataset.count), bucket: Number(r.dataset.bucket),
      h: Number(r.getAttribute("height")),
    })));
    const total = segs.reduce((a, s) => a + s.count, 0);
    const sessions = (await api("GET", "/sessions")).sessions;
    assert(total === sessions.length, `segments count ${total} sessions, the server has ${sessions.length}`);
    for (const st of ["completed", "failed", "paused"]) {
      const want = sessions.filter((s) => s.status === st).length;
      const got = segs.filter((s) => s.status === st).reduce((a, s) => a + s.count, 0);
      assert(got === want && want > 0, `${st}: drawn ${got}, the server has ${want}`);
    }
    assert(segs.every((s) => s.h > 0 && s.bucket >= 0 && s.bucket < 12), JSON.stringify(segs));
  });

  await check("no script errors in the page", async () => {
    assert(pageErrors.length === 0, pageErrors.join("\n"));
  });

  mkdirSync(dirname(artifact), { recursive: true });
  await page.screenshot({ path: artifact, fullPage: true });
  console.log(`screenshot: ${artifact}`);
} finally {
  if (browser) await browser.close();
  await stopAll();
}
await finish(serve.log());
