// dashboard.mjs — the dashboard (/ui of chidori serve) in a real browser: Debian's Chromium,
// headless, driven by playwright-core. Starts a real `chidori serve` under the supervised
// profile, creates a session that waits for an approval, opens /ui, sets the API key, clicks
// Allow in the inbox and waits for the page to show the session completed, with its call log.
// Also: an answer to a paused input sent from the inbox, a signal sent from the inbox to a session
// waiting for one (chidori.signal), and agent output containing HTML shown
// as text. Saves a screenshot to build/artifacts/dashboard.png.
//
// Usage: node tests/browser/dashboard.mjs CHIDORI_BINARY
// Exit 0 all passed, 1 a check failed, 77 cannot run here (the reason on the last line).
// The shared pieces (server, browser, checks) are in harness.mjs.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { apiClient, assert, check, finish, launchChromium, newPage, preflight, startServe } from "./harness.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "..", "..");
const binary = resolve(process.argv[2] || join(repo, "build", "chidori"));
const chromiumPath = process.env.CHIDORI_TEST_CHROMIUM || "/usr/bin/chromium";
const artifact = join(repo, "build", "artifacts", "dashboard.png");
const KEY = "dash-key";

const chromium = await preflight(binary, chromiumPath);

async function startServer() {
  const dir = mkdtempSync(join(tmpdir(), "chidori-dash-"));
  copyFileSync(join(repo, "sdk", "testdata", "agent.ts"), join(dir, "agent.ts"));
  const serve = await startServe(binary, dir, "agent.ts", { CHIDORI_API_KEY: KEY, CHIDORI_POLICY_PROFILE: "supervised" });
  return {
    url: serve.url, dir, log: serve.log,
    async stop() {
      await serve.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const srv = await startServer();
const api = apiClient(srv.url, KEY);
let browser;
try {
  browser = await launchChromium(chromium, chromiumPath, () => srv.stop());
  const { page, pageErrors } = await newPage(browser);

  // Sessions made over the API before the page opens.
  const waiting = await api("POST", "/sessions", { input: { mode: "write" }, session_id: "needs-approval" });
  const asking = await api("POST", "/sessions", { input: { mode: "ask" }, session_id: "needs-answer" });
  const signalled = await api("POST", "/sessions", { input: { mode: "signal" }, session_id: "needs-signal" });
  const hostile = await api("POST", "/sessions",
    { input: { name: '<img id="pwn" src="x">' }, session_id: "html-output", policy_profile: "supervised" });

  await check("the sessions are set up over the API", async () => {
    assert(waiting.status === "awaitingapproval", `needs-approval is ${waiting.status}`);
    assert(waiting.pending_approval && waiting.pending_approval.target === "workspace:write", "no pending approval");
    assert(asking.status === "paused", `needs-answer is ${asking.status}`);
    assert(signalled.status === "paused" && signalled.pending_signal_name === "review", `needs-signal: ${JSON.stringify(signalled)}`);
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
    const session = await api("GET", "/sessions/needs-approval");
    assert(session.status === "completed", `the server says ${session.status}`);
    assert(existsSync(join(srv.dir, "out.txt")), "the approved write did not happen");
  });

  await check("an answer sent from the inbox resumes the paused session", async () => {
    await page.fill('#inbox .inbox-item[data-id="needs-answer"] input.answer', "Ada");
    await page.click('#inbox .inbox-item[data-id="needs-answer"] button.send');
    await page.waitForSelector('#sessions tr[data-id="needs-answer"][data-status="completed"]', { timeout: 20000 });
    const s = await api("GET", "/sessions/needs-answer");
    assert(s.output && s.output.greeting === "Hello, Ada!", `output: ${JSON.stringify(s.output)}`);
  });

  await check("a session waiting for a signal shows it, and a signal sent from the inbox resumes it", async () => {
    const item = '#inbox .inbox-item[data-id="needs-signal"]';
    await page.waitForSelector(`${item} select.signal-name`, { timeout: 10000 });
    const what = await page.$eval(`${item} .what`, (e) => e.textContent);
    assert(what === "Waiting for signal review", `the item says: ${what}`);
    await page.fill(`${item} input.signal-payload`, "{not json");
    await page.click(`${item} button.send`);
    await page.waitForFunction(() => document.getElementById("message").textContent.includes("not JSON"), null, { timeout: 5000 });
    await page.fill(`${item} input.signal-payload`, '{"decision": "ship"}');
    await page.click(`${item} button.send`);
    await page.waitForSelector('#sessions tr[data-id="needs-signal"][data-status="completed"]', { timeout: 20000 });
    const s = await api("GET", "/sessions/needs-signal");
    assert(s.output && s.output.decision === "ship", `output: ${JSON.stringify(s.output)}`);
    assert(JSON.stringify(s.output.from) === '{"kind":"human","id":"dashboard"}', `from: ${JSON.stringify(s.output.from)}`);
  });

  await check("agent output containing HTML is shown as text", async () => {
    await page.click('#sessions tr[data-id="html-output"]');
    await page.waitForFunction(() => document.getElementById("detail-output").textContent.includes('<img id=\\"pwn\\"'), null, { timeout: 10000 });
    assert(await page.$("#pwn") === null, "the agent's HTML became an element");
  });

  await check("Replay makes a new session that completes", async () => {
    await page.click('#sessions tr[data-id="needs-approval"]');
    await page.waitForFunction(() => document.getElementById("detail-id").textContent === "needs-approval", null, { timeout: 5000 });
    const before = (await api("GET", "/sessions")).sessions.length;
    await page.click("#replay");
    await page.waitForFunction((n) => document.querySelectorAll("#sessions tr").length === n + 1, before, { timeout: 10000 });
    const list = (await api("GET", "/sessions")).sessions;
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
await finish(srv.log());
