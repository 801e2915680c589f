// Called by fs_nested.js.
import fs from "node:fs";
export async function agent() {
  const saw = fs.readdirSync("/");
  fs.writeFileSync("/child.txt", "the child's");
  return { saw, wrote: fs.readdirSync("/") };
}
