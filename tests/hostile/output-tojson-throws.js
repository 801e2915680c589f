//! exit: 1
//! stderr: the agent's output is not JSON-compatible: toJSON trap
// An output whose toJSON throws: the run fails with that cause.
export default async () => ({ toJSON() { throw new Error("toJSON trap"); } });
