//! stdout: {
//! stdout:   "bigSize": 1310723,
//! stdout:   "bigRoundTrip": true,
//! stdout:   "longName": "ENAMETOOLONG: name too long, open '/nnnnnnnnnn…'",
//! stdout:   "longPath": "ENAMETOOLONG",
//! stdout:   "name255": true,
//! stdout:   "nul": "ERR_INVALID_ARG_VALUE"
//! stdout: }
// Files larger than one host call moves (1 MiB from fs.js) are written and read in pieces; names longer
// than 255 bytes and paths of 4096 bytes or more are ENAMETOOLONG; NUL is refused.
import fs from "node:fs";
export async function agent() {
  const n = 1.25 * 1024 * 1024 + 3;
  const big = new Uint8Array(n);
  for (let i = 0; i < n; i += 4099) big[i] = (i >> 12) & 255;
  big[n - 1] = 7;
  fs.writeFileSync("/big.bin", big);
  const back = fs.readFileSync("/big.bin");
  let same = back.length === n;
  for (let i = 0; same && i < n; i += 4099) same = back[i] === big[i];
  const out = { bigSize: fs.statSync("/big.bin").size, bigRoundTrip: same && back[n - 1] === 7 };
  try { fs.writeFileSync("/" + "n".repeat(256), "x"); } catch (e) { out.longName = e.message.slice(0, 46) + "…'"; }
  try { fs.mkdirSync("/a".repeat(2048), { recursive: true }); } catch (e) { out.longPath = e.code; }
  fs.writeFileSync("/" + "n".repeat(255), "x");
  out.name255 = fs.existsSync("/" + "n".repeat(255));
  try { fs.writeFileSync("/a\u0000b", "x"); } catch (e) { out.nul = e.code; }
  return out;
}
