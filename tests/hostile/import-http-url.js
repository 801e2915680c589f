//! exit: 1
//! stderr: cannot resolve module `http://127.0.0.1:1/evil.js`
// Remote modules are not a thing: no network from the module loader.
import x from "http://127.0.0.1:1/evil.js";
export default async () => x;
