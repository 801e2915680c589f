//! exit: 1
//! stderr: cannot resolve module `data:text/javascript
//! stderr: only relative imports
// A data: URL would let a module appear from nowhere, unaudited.
import x from "data:text/javascript,export default 1";
export default async () => x;
