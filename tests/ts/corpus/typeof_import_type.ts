type P = typeof import("node:path");
type J = import("node:path").ParsedPath;
const x: P | J | null = null;
console.log(x);
