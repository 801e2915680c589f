//! exit: 1
//! stderr: SyntaxError: import attribute type "text" is not supported
// A static text import (`with { type: "text" }`) is refused when the module is parsed, not loaded
// as JSON (import-attributes-text-refused.js has the dynamic one).
import text from "./lib/data.json" with { type: "text" };

export default async function () {
  return { text };
}
