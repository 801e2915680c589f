// harness.mjs — what the browser suites (dashboard.mjs, timeline.mjs) share: the skip protocol
// (exit 77 with the reason), the preflight that finds the binary, Debian's Chromium and
// playwright-core, a real `chidori serve` started on a free port and stopped, the JSON API client,
// Chromium's launch, a page that collects script errors, and the ok/FAIL checks with their summary.
// --no-sandbox is passed to the test browser when running as root (Chromium refuses to start as
// root otherwise); that is the test harness, not the product.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";

export function skip(why) {
  console.log(`SKIP: ${why}`);
  process.exit(77);
}

// The playwright-core `chromium` handle, or a skip naming what is missing.
export async function preflight(binary, chromiumPath) {
  if (!existsSync(binary)) skip(`${binary} is missing`);
  if (!existsSync(chromiumPath)) skip(`${chromiumPath} is missing (scripts/test-deps.sh installs Debian's chromium)`);
  try {
    return (await import("playwright-core")).chromium;
  } catch (e) {
    skip(`playwright-core is not installed in tests/browser (scripts/test-deps.sh): ${e.message}`);
  }
}

// `chidori serve FILE` in dir on a free loopback port: {url, log(), stop()}; stop() does not remove dir.
export async function startServe(binary, dir, file, env) {
  const child = spawn(binary, ["serve", file, "--host", "127.0.0.1", "--port", "0"], {
    cwd: dir,
    env: { ...process.env, ...env },
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
    url, log: () => log,
    async stop() {
      if (child.exitCode === null) {
        const gone = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        const t = setTimeout(() => child.kill("SIGKILL"), 5000);
        await gone;
        clearTimeout(t);
      }
    },
  };
}

// The server's JSON API with the bearer key; throws on a non-2xx answer.
export function apiClient(url, key) {
  return async function api(method, path, body) {
    const res = await fetch(url + path, {
      method,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const data = await res.json();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${data.error}`);
    return data;
  };
}

// Headless Chromium, or (after cleanup()) a skip saying why it did not start.
export async function launchChromium(chromium, chromiumPath, cleanup) {
  try {
    return await chromium.launch({
      executablePath: chromiumPath,
      headless: true,
      args: process.getuid && process.getuid() === 0 ? ["--no-sandbox"] : [],
      timeout: 30000,
    });
  } catch (e) {
    await cleanup();
    skip(`Chromium did not start: ${String(e.message).split("\n")[0]}`);
  }
}

// A page whose script errors are collected in pageErrors (the browser's log of each 401 the page
// gets before its key is set is expected, not an error).
export async function newPage(browser) {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const pageErrors = [];
  page.on("pageerror", (e) => pageErrors.push(String(e)));
  page.on("console", (m) => { if (m.type() === "error" && !/status of 401/.test(m.text())) pageErrors.push(m.text()); });
  return { page, pageErrors };
}

let passed = 0, failed = 0;
export async function check(name, fn) {
  try {
    await fn();
    passed++;
    console.log(`ok    ${name}`);
  } catch (e) {
    failed++;
    console.log(`FAIL  ${name}: ${String(e && e.stack || e).split("\n").slice(0, 6).join("\n      ")}`);
  }
}
export function assert(cond, what) { if (!cond) throw new Error(what); }

// The last checks of every suite: no sanitizer report from the server, then the summary and exit.
export async function finish(serverLog) {
  await check("the server logged no sanitizer report", async () => {
    assert(!/ERROR: (Address|Leak)Sanitizer|runtime error:/.test(serverLog), serverLog.slice(-4000));
  });
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}
