//! stdout-contains: "json": 3
//! stdout-contains: "dynamicText": "SyntaxError: import attribute type \"text\" is not supported: chidori loads code and JSON modules; read a file's text with the workspace effect"
// Import attributes: `type: "json"` loads the JSON module (statically and dynamically), and a text
// module (`type: "text"`) is refused with a clear error instead of being loaded as JSON: a text
// import would hand the agent any project file as a string, outside the workspace effect.
import data from "./lib/data.json" with { type: "json" };

export default async function () {
  const viaImport = await import("./lib/data.json", { with: { type: "json" } });
  let dynamicText = "loaded";
  try {
    const m = await import("./lib/data.json", { with: { type: "text" } });
    dynamicText = "loaded: " + typeof m.default;
  } catch (e) {
    dynamicText = `${e.name}: ${e.message}`;
  }
  return { json: data.n, dynamicJson: viaImport.default.n, dynamicText };
}
