//! env: CHIDORI_VFS_MAX_BYTES=1000
//! stdout: {
//! stdout:   "tooMuch": "ENOSPC",
//! stdout:   "fits": "written",
//! stdout:   "afterChild": "ENOSPC"
//! stdout: }
// The byte cap covers every VFS alive at once: a nested agent gets what its caller leaves, so
// nesting does not multiply the memory a run can hold. The child's bytes end with it.
import fs from "node:fs";
export async function agent(input, chidori) {
  fs.writeFileSync("/parent.bin", new Uint8Array(600));
  const tooMuch = await chidori.callAgent("_fs_nested_cap_child.js", { bytes: 401 });
  const fits = await chidori.callAgent("_fs_nested_cap_child.js", { bytes: 400 });
  let afterChild = "written";
  try { fs.writeFileSync("/more.bin", new Uint8Array(401)); } catch (e) { afterChild = e.code; }
  return { tooMuch, fits, afterChild };
}
