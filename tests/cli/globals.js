//! mode: eval
//! stdout-file: globals.allowlist
// The global object of a bare run, checked name by name against an explicit allowlist. A new
// global must be added to globals.allowlist on purpose, after asking whether it reaches anything
// outside the engine.
const names = Object.getOwnPropertyNames(globalThis).sort();
const symbols = Object.getOwnPropertySymbols(globalThis).map(String);
console.log([...names, ...symbols].join("\n"));
