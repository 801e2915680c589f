// tests/node/oracle_crypto/random_probe.mjs — every way node:crypto hands out randomness. Each
// byte comes from the recorded host op random_bytes, so a replay of this run prints the same
// answer and a fresh run a different one (cases_url_crypto.py checks both, and the call log).
import crypto, { randomBytes, randomUUID, getRandomValues, randomInt, randomFillSync, randomFill, createHash } from "node:crypto";

const hex = (u8) => Array.from(new Uint8Array(u8.buffer, u8.byteOffset, u8.byteLength), (b) => b.toString(16).padStart(2, "0")).join("");
const codeOf = (fn) => { try { fn(); return "no error"; } catch (e) { return `${e.name}/${e.code}`; } };

export async function agent() {
  const out = {};
  out.bytes = hex(randomBytes(16));
  out.uuid = randomUUID();
  out.globalUuid = globalThis.crypto.randomUUID();
  out.values = Array.from(getRandomValues(new Uint16Array(8)));
  out.globalValues = Array.from(globalThis.crypto.getRandomValues(new Uint8Array(6)));
  out.bigints = Array.from(getRandomValues(new BigUint64Array(2)), String);
  out.ints = Array.from({ length: 12 }, () => randomInt(-5, 5));
  out.intsInRange = out.ints.every((n) => Number.isInteger(n) && n >= -5 && n < 5);
  out.fill = hex(randomFillSync(new Uint8Array(12), 4, 4));
  const big = randomBytes(150000); // three host calls: 65536 + 65536 + 18928
  out.big = [big.length, createHash("sha256").update(big).digest("hex")];
  out.callback = await new Promise((resolve) => randomBytes(4, (err, b) => resolve([err, hex(b)])));
  out.fillCallback = await new Promise((resolve) => randomFill(new Uint8Array(3), (err, b) => resolve([err, hex(b)])));
  out.intCallback = await new Promise((resolve) => randomInt(100, (err, n) => resolve([err, n])));
  out.uuidShape = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(out.uuid);
  out.errors = {
    overRequestCap: codeOf(() => randomBytes(2 * 1024 * 1024)),
    quota: codeOf(() => getRandomValues(new Uint8Array(65537))),
    quotaOk: codeOf(() => getRandomValues(new Uint32Array(16384))),
    floats: codeOf(() => getRandomValues(new Float64Array(2))),
    negative: codeOf(() => randomBytes(-1)),
    notNumber: codeOf(() => randomBytes("8")),
    emptyRange: codeOf(() => randomInt(3, 3)),
    hugeRange: codeOf(() => randomInt(0, 2 ** 48 + 1)),
    lengths: codeOf(() => crypto.timingSafeEqual(new Uint8Array(2), new Uint8Array(3))),
    cipher: codeOf(() => crypto.createCipheriv("aes-128-cbc", "k", "iv")),
    pbkdf2: codeOf(() => crypto.pbkdf2Sync("p", "s", 1, 32, "sha256")),
    badDigest: codeOf(() => crypto.createHash("not-a-digest")),
    sha3: codeOf(() => crypto.createHash("sha3-256")),
    hashCap: codeOf(() => createHash("sha256").update(new Uint8Array(16 << 20)).update(new Uint8Array((16 << 20) + 1))),
    hmacKeyCap: codeOf(() => crypto.createHmac("sha256", new Uint8Array((1 << 20) + 1))),
  };
  out.subtle = await crypto.subtle.sign("HMAC", null, new Uint8Array(1)).then(() => "resolved", (e) => e.code);
  out.equal = [crypto.timingSafeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 3])),
    crypto.timingSafeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 4]))];
  return out;
}
