export type { Foo } from "./nonexistent-types.js";
export type * from "./also-nonexistent.js";
export { type Bar } from "./nonexistent-2.js";
interface Local { a: number }
type LocalT = string;
export { type Local, type LocalT };
export const value = 1;
console.log("exports ok", value);
