//! stdout: {
//! stdout:   "first": {
//! stdout:     "saw": [],
//! stdout:     "wrote": [
//! stdout:       "child.txt"
//! stdout:     ]
//! stdout:   },
//! stdout:   "second": {
//! stdout:     "saw": [],
//! stdout:     "wrote": [
//! stdout:       "child.txt"
//! stdout:     ]
//! stdout:   },
//! stdout:   "parentSees": [
//! stdout:     "parent.txt"
//! stdout:   ]
//! stdout: }
// Each nested agent (chidori.callAgent) has its own VFS for its lifetime, fresh from the seed:
// it does not see the caller's files, and its files end with it (docs/vfs.md).
import fs from "node:fs";
export async function agent(input, chidori) {
  fs.writeFileSync("/parent.txt", "mine");
  const first = await chidori.callAgent("_fs_nested_child.js", {});
  const second = await chidori.callAgent("_fs_nested_child.js", {});
  return { first, second, parentSees: fs.readdirSync("/") };
}
