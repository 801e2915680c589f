//! exit: 1
//! stderr: the agent's output is not JSON-compatible: ownKeys trap
// A Proxy output whose ownKeys trap throws while the host converts it.
export default async () => new Proxy({}, { ownKeys() { throw new Error("ownKeys trap"); } });
