//! env: CHIDORI_TS_FS=none
//! stdout-contains: "ERR_CHIDORI_FS_DISABLED"
//! stdout-contains: "node:fs is unavailable: fs is disabled by CHIDORI_TS_FS=none"
//! stdout-contains: "existsSync": "ERR_CHIDORI_FS_DISABLED"
// CHIDORI_TS_FS=none: node:fs still imports, and every use fails with a clear error.
import fs from "node:fs";
export async function agent() {
  const out = {};
  try { fs.writeFileSync("/a", "x"); } catch (e) { out.write = [e.code, e.message]; }
  try { fs.existsSync("/a"); } catch (e) { out.existsSync = e.code; }
  out.promise = await fs.promises.readFile("/a").catch((e) => e.code);
  return out;
}
