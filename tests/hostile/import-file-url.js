//! exit: 1
//! stderr: cannot resolve module `file:///etc/passwd`
//! stderr: only relative imports
// A file: URL names a host file by another spelling.
import x from "file:///etc/passwd";
export default async () => x;
