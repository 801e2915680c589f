//! input: {"x": 1, "nested": {"y": [true, null]}}
//! stdout-file: echo-input.out
import { run } from "chidori:agent";

run(async (input) => input);
