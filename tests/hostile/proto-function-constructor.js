//! stdout-contains: "ReferenceError"
//! stdout-not: function
// No route from guest code to the engine's natives: Function, eval, constructor walks and the
// stack of a host error reveal nothing callable.
export default async (input, chidori) => {
  const found = [];
  const candidates = [
    () => Function("return this")().natives,
    () => Function("return this")().host,
    () => chidori.log.constructor("return natives")(),
    () => (0, eval)("typeof natives"),
    () => chidori.constructor.constructor("return typeof hostCall")(),
    () => Object.getOwnPropertyNames(globalThis).filter((n) => /native|host|internal/i.test(n)),
  ];
  for (const c of candidates) { try { found.push(c()); } catch (e) { found.push(e.name); } }
  return found;
};
