// Called by fs_nested_cap.js: writes input.bytes bytes into its own VFS.
import fs from "node:fs";
export async function agent(input) {
  try { fs.writeFileSync("/child.bin", new Uint8Array(input.bytes)); return "written"; } catch (e) { return e.code; }
}
