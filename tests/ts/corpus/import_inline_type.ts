import { join, type ParsedPath, sep } from "node:path";
const p: ParsedPath | null = null;
console.log(join("a", "b") === "a" + sep + "b", p);
