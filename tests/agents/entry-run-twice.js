//! exit: 1
//! stderr: run() was called more than once
import { run } from "chidori:agent";
run(async () => 1);
run(async () => 2);
