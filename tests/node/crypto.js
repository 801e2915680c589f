//! stdout-contains: "failures": []
// node:crypto and the crypto global without Node (the oracle comparison is
// tests/cases_url_crypto.py): known digests, HMAC, the global's shape, unavailable APIs.
import crypto, { createHash, createHmac, hash, timingSafeEqual } from "node:crypto";

export async function agent() {
  const failures = [];
  const eq = (name, got, want) => { if (JSON.stringify(got) !== JSON.stringify(want)) failures.push({ name, got, want }); };
  eq("sha256", createHash("sha256").update("abc").digest("hex"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  eq("md5 base64", createHash("md5").update("").digest("base64"), "1B2M2Y8AsgTpgAmY7PhCfg==");
  eq("hmac", createHmac("sha256", "Jefe").update("what do ya want for nothing?").digest("hex"),
    "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  eq("one-shot", hash("sha1", "abc"), "a9993e364706816aba3e25717850c26c9cd0d89d");
  eq("global", globalThis.crypto === crypto.webcrypto && typeof crypto.getRandomValues, "function");
  eq("digest bytes", Array.from(createHash("sha1").update("abc").digest().subarray(0, 2)), [0xa9, 0x99]);
  const d = new Uint8Array(await globalThis.crypto.subtle.digest("SHA-256", new Uint8Array([97, 98, 99])));
  eq("subtle.digest", d[0], 0xba);
  eq("timingSafeEqual", timingSafeEqual(new Uint8Array([1]), new Uint8Array([1])), true);
  const h = createHash("sha256");
  h.digest();
  let e;
  try { h.update("x"); } catch (err) { e = err.code; }
  eq("finalized", e, "ERR_CRYPTO_HASH_FINALIZED");
  try { crypto.generateKeyPairSync("rsa"); } catch (err) { e = [err.code, /not available in chidori/.test(err.message)]; }
  eq("unavailable", e, ["ERR_CHIDORI_UNAVAILABLE", true]);
  eq("uuid", /^[0-9a-f-]{36}$/.test(crypto.randomUUID()), true);
  return { failures };
}
