export { default as chunk } from './chunk.js';
export { a, b as c } from "./x.js";
export * as ns from './ns.js'
