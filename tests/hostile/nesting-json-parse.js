//! stdout-contains: "SyntaxError",
//! stdout-not: parsed
// JSON.parse of a million nested arrays and objects.
export default async () => {
  const out = [];
  for (const src of ["[".repeat(1e6) + "]".repeat(1e6), '{"a":'.repeat(1e6) + "1" + "}".repeat(1e6)]) {
    try { JSON.parse(src); out.push("parsed"); } catch (e) { out.push(e.name); }
  }
  return out;
};
