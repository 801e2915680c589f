//! stdout-contains: cannot find module `./x.js` (from import-nul-byte.js)
// A NUL byte in a specifier: the engine cuts the specifier at the NUL, so the rest never reaches
// the host, and what remains is resolved inside the project like any other.
export default async () => {
  try { await import("./x.js\u0000/../../../../etc/passwd"); return "imported"; } catch (e) { return e.message; }
};
