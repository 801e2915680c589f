//! exit: 1
//! stderr: not JSON-compatible
export default async () => ({ big: 1n });
