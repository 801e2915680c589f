//! exit: 1
//! stderr: SyntaxError
//! stderr: syntax-error.js:9:13
//! stderr:   const x = ;
//! stderr:             ^
import { run } from "chidori:agent";

run(async () => {
  const x = ;
});
