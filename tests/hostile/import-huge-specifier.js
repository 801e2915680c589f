//! stdout: "module load: malformed specifier"
// A megabyte-long specifier is refused, not copied around.
export default async () => {
  try { await import("./" + "a/".repeat(500000) + "x.js"); return "imported"; } catch (e) { return e.message.slice(0, 80); }
};
