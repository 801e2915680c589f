//! stdout-contains: "static": "hi static"
//! stdout-contains: "dynamic": "hi dynamic"
import { run } from "chidori:agent";
import { greet } from "./lib/helper.js";
run(async () => {
  const mod = await import("./lib/helper.js");
  return { static: greet("static"), dynamic: mod.greet("dynamic") };
});
