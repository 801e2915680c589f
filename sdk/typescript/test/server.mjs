// server.mjs — starts a real `chidori serve` for the end-to-end tests: the test agent
// (sdk/testdata/agent.ts) copied into a fresh folder, a free loopback port chosen by the server
// (--port 0), an API key, and the server's policy `--trusted` (permissive) so that a session's
// `supervised` profile decides. The binary is $CHIDORI_BIN or build/chidori of the repository.
import { after, before } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
export const binary = process.env.CHIDORI_BIN || join(repo, "build", "chidori");
export const haveBinary = existsSync(binary);

export async function startServer({ apiKey = "test-key", args = ["--trusted"], env = {} } = {}) {
  const dir = mkdtempSync(join(tmpdir(), "chidori-sdk-"));
  copyFileSync(join(repo, "sdk", "testdata", "agent.ts"), join(dir, "agent.ts"));
  const child = spawn(binary, ["serve", "agent.ts", "--host", "127.0.0.1", "--port", "0", ...args], {
    cwd: dir,
    env: { ...process.env, CHIDORI_API_KEY: apiKey, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "", err = "";
  // The banner (and "Listening on http://ADDR") goes to stderr.
  const url = await new Promise((resolveUrl, reject) => {
    const fail = (why) => { child.kill("SIGKILL"); reject(new Error(`${why}\n${out}${err}`)); };
    const timer = setTimeout(() => fail("serve did not start in 20 s"), 20000);
    const look = () => {
      const m = /Listening on (http:\/\/\S+)/.exec(err + out);
      if (m) { clearTimeout(timer); resolveUrl(m[1]); }
    };
    child.stdout.on("data", (c) => { out += c; look(); });
    child.stderr.on("data", (c) => { err += c; look(); });
    child.on("exit", (code) => { clearTimeout(timer); reject(new Error(`serve exited ${code}\n${out}${err}`)); });
  });
  return {
    url,
    dir,
    apiKey,
    stderr: () => err,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        const t = setTimeout(() => child.kill("SIGKILL"), 5000);
        await exited;
        clearTimeout(t);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// One server for a test file, started before its tests and stopped after them, and a client of
// it (made by makeClient(srv)); after the tests its log must hold no sanitizer report. Returns
// {skip, srv, client} (srv and client filled in once the server is up).
export function serverForTests(makeClient) {
  const t = { skip: !haveBinary && `${binary} is missing (make build)`, srv: null, client: null };
  before(async () => {
    if (t.skip) return;
    t.srv = await startServer();
    t.client = makeClient(t.srv);
  });
  after(async () => {
    if (!t.srv) return;
    await t.srv.stop();
    // a sanitizer build of the server reports here (CHIDORI_BIN=build/asan/chidori)
    assert.doesNotMatch(t.srv.stderr(), /ERROR: (Address|Leak)Sanitizer|runtime error:/);
  });
  return t;
}
