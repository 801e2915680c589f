//! stdout-contains: "SyntaxError",
//! stdout-not: parsed
// Deeply nested parentheses and functions in source code.
export default async () => {
  const out = [];
  for (const src of ["(".repeat(1e5) + "1" + ")".repeat(1e5), "function f(){".repeat(1e5) + "}".repeat(1e5)]) {
    try { eval(src); out.push("parsed"); } catch (e) { out.push(e.name); }
  }
  return out;
};
