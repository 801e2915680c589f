//! exit: 1
//! stderr: not JSON-compatible
export default async () => () => 1;
