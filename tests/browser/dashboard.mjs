// dashboard.mjs — the dashboard (/ui of chidori serve) in a real browser: Debian's Chromium,
// headless, driven by playwright-core. Starts a real `chidori serve` under the supervised
// profile, creates a session that waits for an approval, opens /ui, sets the API key, clicks
// Allow in the inbox and waits for the page to show the session completed, with its call log.
// Also: an answer to a paused input sent from the inbox, and agent output containing HTML shown
// as text. Saves a screenshot to build/artifacts/dashboard.png.
//
// Usage: node tests/browser/dashboard.mjs CHIDORI_BINARY
// Exit 0 all passed, 1 a check failed, 77 cannot run here (the reason on the last line).
// --no-sandbox is passed to the test browser when running as root (Chromium refuses to start
// as root otherwise); that is the test harness, not the product.
import { spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "..", "..");
const binary = resolve(process.argv[2] || join(repo, "build", "chidori"));
const chromiumPath = process.env.CHIDORI_TEST_CHROMIUM || "/usr/bin/chromium";
const artifact = join(repo, "build", "artifacts", "dashboard.png");
const KEY = "dash-key";

function skip(why) {
  console.log(`SKIP: ${why}`);
  process.exit(77);
}

if (!existsSync(binary)) skip(`${binary} is missing`);
if (!existsSync(chromiumPath)) skip(`${chromiumPath} is missing (scripts/test-deps.sh installs Debian's chromium)`);
let chromium;
try {
  ({ chromium } = await import("playwright-core"));
} catch (e) {
  skip(`playwright-core is not installed in tests/browser (scripts/test-deps.sh): ${e.message}`);
}

async function startServer() {
  const dir = mkdtempSync(join(tmpdir(), "chidori-dash-"));
  copyFileSync(join(repo, "sdk", "testdata", "agent.ts"), join(dir, "agent.ts"));
  const child = spawn(binary, ["serve", "agent.ts", "--host", "127.0.0.1", "--port", "0"], {
    cwd: dir,
    env: { ...process.env, CHIDORI_API_KEY: KEY, CHIDORI_POLICY_PROFILE: "supervised" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  const url = await new Promise((ok, fail) => {
    const timer = setTimeout(() => { child.kill("SIGKILL"); fail(new Error(`serve did not start\n${log}`)); }, 20000);
    const look = (c) => {
      log += c;
      const m = /Listening on (http:\/\/\S+)/.exec(log);
      if (m) { clearTimeout(timer); ok(m[1]); }
    };
    child.stdout.on("data", look);
    child.stderr.on("data", look);
    child.on("exit", (code) => { clearTimeout(timer); fail(new Error(`serve exited ${code}\n${log}`)); });
  });
  return {
    url, dir, log: () => log,
    async stop() {
      if (child.exitCode === null) {
        const gone = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        const t = setTimeout(() => child.kill("SIGKILL"), 5000);
        await gone;
        clearTimeout(t);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function api(srv, method, path, body) {
  const res = await fetch(srv.url + path, {
    method,
    headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${data.error}`);
  return data;
}

let passed = 0, failed = 0;
async function check(name, fn) {
  try {
    await fn();
    passed++;
    console.log(`ok    ${name}`);
  } catch (e) {
    failed++;
    console.log(`FAIL  ${name}: ${String(e && e.stack || e).split("\n").slice(0, 6).join("\n      ")}`);
  }
}
function assert(cond, what) { if (!cond) throw new Error(what); }

const srv = await startServer();
let browser;
try {
  try {
    browser = await chromium.launch({
      executablePath: chromiumPath,
      headless: true,
      args: process.getuid && process.getuid() === 0 ? ["--no-sandbox"] : [],
      timeout: 30000,
    });
  } catch (e) {
    await srv.stop();
    skip(`Chromium did not start: ${String(e.message).split("\n")[0]}`);
  }
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const pageErrors = [];
  page.on("pageerror", (e) => pageErrors.push(String(e)));
  // The browser logs each 401 the page gets before the key is set; those are expected.
  page.on("console", (m) => { if (m.type() === "error" && !/status of 401/.test(m.text())) pageErrors.push(m.text()); });

  // Sessions made over the API before the page opens.
  const waiting = await api(srv, "POST", "/sessions", { input: { mode: "write" }, session_id: "needs-approval" });
  const asking = await api(srv, "POST", "/sessions", { input: { mode: "ask" }, session_id: "needs-answer" });
  const hostile = await api(srv, "POST", "/sessions",
    { input: { name: '<img id="pwn" src="x">' }, session_id: "html-output", policy_profile: "supervised" });

  await check("the sessions are set up over the API", async () => {
    assert(waiting.status === "awaitingapproval", `needs-approval is ${waiting.status}`);
    assert(waiting.pending_approval && waiting.pending_approval.target === "workspace:write", "no pending approval");
    assert(asking.status === "paused", `needs-answer is ${asking.status}`);
    assert(hostile.status === "completed", `html-output is ${hostile.status}`);
  });

  await check("/ui loads; without the key it says so", async () => {
    const res = await page.goto(`${srv.url}/ui`);
    assert(res.status() === 200, `GET /ui answered ${res.status()}`);
    assert((res.headers()["content-security-policy"] || "").includes("script-src 'self'"), "no CSP header");
    await page.waitForFunction(() => document.getElementById("conn").textContent === "API key needed", null, { timeout: 10000 });
  });

  await check("with the key the sessions and the inbox appear", async () => {
    await page.fill("#api-key", KEY);
    await page.click("#save-key");
    await page.waitForSelector('#sessions tr[data-id="needs-approval"][data-status="awaitingapproval"]', { timeout: 10000 });
    await page.waitForSelector('#inbox .inbox-item[data-id="needs-approval"] button.allow', { timeout: 10000 });
    await page.waitForSelector('#inbox .inbox-item[data-id="needs-answer"] input.answer', { timeout: 10000 });
    const stored = await page.evaluate(() => sessionStorage.getItem("chidori.apiKey"));
    assert(stored === KEY, "the key is not in sessionStorage");
  });

  await check("selecting the waiting session shows its call log over the stream", async () => {
    await page.click('#sessions tr[data-id="needs-approval"]');
    await page.waitForFunction(() => document.querySelectorAll("#calls tr").length === 3, null, { timeout: 10000 });
    const fns = await page.$$eval("#calls tr td:nth-child(2)", (tds) => tds.map((t) => t.textContent));
    assert(JSON.stringify(fns) === JSON.stringify(["log", "mark", "step"]), `calls: ${fns}`);
  });

  await check("Allow in the inbox: the session becomes completed in the page, live", async () => {
    await page.click('#inbox .inbox-item[data-id="needs-approval"] button.allow');
    await page.waitForSelector('#sessions tr[data-id="needs-approval"][data-status="completed"]', { timeout: 20000 });
    await page.waitForFunction(() => document.getElementById("detail-status").dataset.status === "completed", null, { timeout: 10000 });
    await page.waitForFunction(() => document.querySelectorAll("#calls tr").length === 5, null, { timeout: 10000 });
    const fns = await page.$$eval("#calls tr td:nth-child(2)", (tds) => tds.map((t) => t.textContent));
    assert(JSON.stringify(fns) === JSON.stringify(["log", "mark", "step", "workspace", "log"]), `calls: ${fns}`);
    const inboxed = await page.$('#inbox .inbox-item[data-id="needs-approval"]');
    assert(inboxed === null, "the approval is still in the inbox");
    const session = await api(srv, "GET", "/sessions/needs-approval");
    assert(session.status === "completed", `the server says ${session.status}`);
    assert(existsSync(join(srv.dir, "out.txt")), "the approved write did not happen");
  });

  await check("an answer sent from the inbox resumes the paused session", async () => {
    await page.fill('#inbox .inbox-item[data-id="needs-answer"] input.answer', "Ada");
    await page.click('#inbox .inbox-item[data-id="needs-answer"] button.send');
    await page.waitForSelector('#sessions tr[data-id="needs-answer"][data-status="completed"]', { timeout: 20000 });
    const s = await api(srv, "GET", "/sessions/needs-answer");
    assert(s.output && s.output.greeting === "Hello, Ada!", `output: ${JSON.stringify(s.output)}`);
  });

  await check("agent output containing HTML is shown as text", async () => {
    await page.click('#sessions tr[data-id="html-output"]');
    await page.waitForFunction(() => document.getElementById("detail-output").textContent.includes('<img id=\\"pwn\\"'), null, { timeout: 10000 });
    assert(await page.$("#pwn") === null, "the agent's HTML became an element");
  });

  await check("Replay makes a new session that completes", async () => {
    await page.click('#sessions tr[data-id="needs-approval"]');
    await page.waitForFunction(() => document.getElementById("detail-id").textContent === "needs-approval", null, { timeout: 5000 });
    const before = (await api(srv, "GET", "/sessions")).sessions.length;
    await page.click("#replay");
    await page.waitForFunction((n) => document.querySelectorAll("#sessions tr").length === n + 1, before, { timeout: 10000 });
    const list = (await api(srv, "GET", "/sessions")).sessions;
    const copy = list.find((s) => s.replayed_from === "needs-approval") || list[list.length - 1];
    await page.waitForSelector(`#sessions tr[data-id="${copy.id}"][data-status="completed"]`, { timeout: 20000 });
  });

  await check("no script errors in the page", async () => {
    assert(pageErrors.length === 0, pageErrors.join("\n"));
  });

  await page.click('#sessions tr[data-id="needs-approval"]');
  await page.waitForFunction(() => document.querySelectorAll("#calls tr").length === 5, null, { timeout: 10000 }).catch(() => {});
  mkdirSync(dirname(artifact), { recursive: true });
  await page.screenshot({ path: artifact, fullPage: true });
  console.log(`screenshot: ${artifact}`);
} finally {
  if (browser) await browser.close();
  await srv.stop();
}
await check("the server logged no sanitizer report", async () => {
  assert(!/ERROR: (Address|Leak)Sanitizer|runtime error:/.test(srv.log()), srv.log().slice(-4000));
});
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
