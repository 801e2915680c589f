//! stdout: "SyntaxError"
// A regex with 100,000 nested groups.
export default async () => {
  try { new RegExp("(".repeat(1e5) + "a" + ")".repeat(1e5)); return "compiled"; } catch (e) { return e.name; }
};
