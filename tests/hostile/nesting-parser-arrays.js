//! stdout: "SyntaxError"
// A million nested brackets in source code: a catchable error, not a native stack overflow.
export default async () => {
  try { eval("[".repeat(1e6) + "]".repeat(1e6)); return "parsed"; } catch (e) { return e.name; }
};
