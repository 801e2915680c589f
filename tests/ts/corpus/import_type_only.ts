import type { Readable } from "node:stream";
import type Def from "node:path";
import { type Writable } from "node:stream";
const r: Readable | null = null;
console.log("no runtime import", r);
