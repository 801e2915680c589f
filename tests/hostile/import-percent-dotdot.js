//! exit: 1
//! stderr: cannot find module `./%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd`
// Percent-encoded `..` is not decoded into a traversal.
import x from "./%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd";
export default async () => x;
