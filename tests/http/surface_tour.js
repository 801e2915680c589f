// The captured surface in one agent: node:fs on the VFS, path, crypto (hashes computed, random
// bytes captured), URL, Buffer, events, timers on virtual time, and fetch through the http effect.
// Run, replayed and run in-process, it must print the same bytes, and the replay sends nothing.
import fs from "node:fs";
import { readFile } from "fs/promises";
import path from "node:path";
import crypto from "node:crypto";
import { EventEmitter, once } from "events";
import { setTimeout as sleep } from "node:timers/promises";

export default async ({ base }) => {
  const events = new EventEmitter();
  const seen = [];
  events.on("step", (name) => seen.push(name));

  const url = new URL("/echo?from=tour", base);
  url.searchParams.append("q", "a b&c");
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" },
                                 body: JSON.stringify({ hello: "world" }) });
  const echoed = await res.json();
  events.emit("step", "fetched");

  const dir = path.join("/work", "tour");
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "echo.json");
  fs.writeFileSync(file, JSON.stringify(echoed));
  const back = JSON.parse(await readFile(file, "utf8"));
  events.emit("step", "stored");

  const t0 = Date.now();
  await sleep(250);
  const later = Promise.resolve().then(() => events.emit("done", Date.now() - t0));
  const [waited] = await once(events, "done");
  await later;

  const random = crypto.randomBytes(16);
  const body = Buffer.from(JSON.stringify(back));
  return {
    status: res.status,
    echoedMethod: back.method ?? null,
    searchParams: url.search,
    sha256: crypto.createHash("sha256").update(body).digest("hex"),
    hmac: crypto.createHmac("sha1", "key").update("data").digest("base64"),
    random: random.toString("hex"),
    uuid: crypto.randomUUID(),
    base64: body.subarray(0, 12).toString("base64"),
    files: fs.readdirSync(dir),
    seen,
    waited,
    mathRandom: Math.random(),
  };
};
