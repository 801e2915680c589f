//! exit: 1
//! stderr: not JSON-compatible
export default async () => { const a = {}; a.self = a; return a; };
