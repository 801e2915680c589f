//! stdout-contains: "refused": true
//! stdout-contains: outside the agent's folder
import { run } from "chidori:agent";
run(async () => {
  try {
    await import("../../../../../etc/passwd");
    return { refused: false };
  } catch (e) {
    return { refused: true, message: String(e.message) };
  }
});
