// tests/node/oracle_crypto/digest_probe.mjs — every digest and HMAC chidori computes, over inputs
// of every kind (empty, ASCII, UTF-8, binary, 1 MiB, split updates, copies, encodings). Run by
// chidori (`chidori run digest_probe.mjs`) and by Node (`node digest_probe.mjs --node`), which is
// the oracle; cases_url_crypto.py compares the two answers.
import { createHash, createHmac, getHashes } from "node:crypto";

const hex = (u8) => Array.from(u8, (b) => b.toString(16).padStart(2, "0")).join("");

let cached;
function inputs() {
  if (cached) return cached;
  const binary = new Uint8Array(256);
  for (let i = 0; i < 256; i++) binary[i] = 255 - i;
  const mega = new Uint8Array(1 << 20);
  for (let i = 0; i < mega.length; i++) mega[i] = (i * 31 + 7) & 255;
  cached = [
    ["empty", ""],
    ["ascii", "The quick brown fox jumps over the lazy dog"],
    ["utf8", "héllo wörld — 日本語 😀 \u0000 end"],
    ["lone-surrogate", "a\ud800b"],
    ["binary", binary],
    ["mega", mega],
    ["int32-view", new Int32Array([1, -2, 3, 0x7fffffff])],
    ["dataview", new DataView(binary.buffer, 10, 100)],
  ];
  return cached;
}

const KEYS = [["k-empty", ""], ["k-short", "key"], ["k-utf8", "ключ🔑"], ["k-long", "x".repeat(300)],
  ["k-bytes", new Uint8Array([0, 1, 2, 250, 255])]];

export async function agent() {
  const out = { hashes: getHashes().filter((h) => ["md5", "sha1", "sha256", "sha384", "sha512"].includes(h)).sort() };
  const algs = ["md5", "sha1", "sha256", "sha384", "sha512", "SHA256", "RSA-SHA1"];
  for (const alg of algs) {
    const aliased = alg !== alg.toLowerCase() || alg.includes("-");
    for (const [name, data] of inputs()) {
      if (name === "mega" && aliased) continue; // 1 MiB once per algorithm keeps the case fast
      out[`${alg} ${name}`] = createHash(alg).update(data).digest("hex");
    }
    for (const [kname, key] of KEYS) {
      for (const [name, data] of inputs()) {
        if (name === "mega" && (kname !== "k-short" || alg !== "sha256")) continue;
        out[`hmac-${alg} ${kname} ${name}`] = createHmac(alg, key).update(data).digest("base64");
      }
    }
  }
  // Split updates equal one update; copy() forks the state; output and input encodings.
  const h = createHash("sha256").update("part one, ").update(new Uint8Array([112, 97, 114, 116])).update(" two");
  const fork = h.copy().update(" and more");
  out.split = h.digest("hex");
  out.fork = fork.digest("base64url");
  out.encodings = ["hex", "base64", "base64url", "latin1", "binary"].map((e) => createHash("md5").update("enc").digest(e));
  out.buffer = hex(createHash("sha1").update("buf").digest());
  out.inputEnc = [["ff00aa", "hex"], ["aGVsbG8=", "base64"], ["aGVsbG8", "base64url"], ["é\u00ff", "latin1"],
    ["é\u00ff", "binary"], ["hé", "utf16le"], ["plain", "utf8"], ["plain", "utf-8"]]
    .map(([s, e]) => createHash("sha256").update(s, e).digest("hex"));
  out.hmacBuffer = hex(createHmac("sha512", new Uint8Array(200).fill(7)).update("m").digest());
  return out;
}

if (typeof process !== "undefined" && process.argv && process.argv.includes("--node")) {
  process.stdout.write(JSON.stringify(await agent()));
}
