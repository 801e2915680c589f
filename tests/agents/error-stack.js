//! exit: 1
//! stderr: RangeError: from the helper
//! stderr: lib/helper.js:3:
//! stderr: error-stack.js:9:
//! stderr-not: chidori prelude
import { run } from "chidori:agent";
import { fail } from "./lib/helper.js";
run(async () => {
  fail();
});
