//! exit: 1
//! stderr: the agent's output is not JSON-compatible: stack overflow
// A 100,000-deep nested array output: serialization fails cleanly (no native stack overflow).
export default async () => { let a = []; for (let i = 0; i < 100000; i++) a = [a]; return a; };
