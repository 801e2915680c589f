// tests/cases_startup.py: an agent whose error passes through the prelude (run's handler) and an
// added built-in (Iterator.prototype.map calls the callback), then ends the run.
import { run } from "chidori:agent";
function agentFrame() {
  [1, 2].values().map((x) => { if (x === 2) throw new RangeError("thrown by the agent"); return x; }).toArray();
}
run(async () => {
  agentFrame(); // before any await: the prelude's frame that called the handler is on the stack
});
