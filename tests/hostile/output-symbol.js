//! exit: 1
//! stderr: the agent's output is not JSON-compatible (symbol)
// A symbol is not JSON.
export default async () => Symbol("s");
