//! env: CHIDORI_VFS_MAX_BYTES=1000
//! stdout: {
//! stdout:   "first": 600,
//! stdout:   "second": "ENOSPC: no space left on device, open '/b.bin'",
//! stdout:   "errno": -28,
//! stdout:   "unchanged": false,
//! stdout:   "afterFreeing": 1000
//! stdout: }
// CHIDORI_VFS_MAX_BYTES caps the bytes of all files: a write past it fails with ENOSPC and
// changes nothing; removing a file gives its bytes back.
import fs from "node:fs";
export async function agent() {
  fs.writeFileSync("/a.bin", new Uint8Array(600));
  const out = { first: fs.statSync("/a.bin").size };
  try { fs.writeFileSync("/b.bin", new Uint8Array(401)); } catch (e) { out.second = e.message; out.errno = e.errno; }
  out.unchanged = fs.existsSync("/b.bin");
  fs.unlinkSync("/a.bin");
  fs.writeFileSync("/b.bin", new Uint8Array(1000));
  out.afterFreeing = fs.statSync("/b.bin").size;
  return out;
}
