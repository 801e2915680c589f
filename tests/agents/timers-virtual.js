//! env: CHIDORI_CLOCK_START_MS=1000000
//! stdout-file: timers-virtual.out
// Timers run on virtual time: a day-long timeout fires at once, in (deadline, id) order.
import { run } from "chidori:agent";
run(async () => {
  const log = [];
  const start = Date.now();
  let ticks = 0;
  const id = setInterval(() => {
    ticks++;
    log.push(`interval ${ticks} at +${Date.now() - start}`);
    if (ticks === 3) clearInterval(id);
  }, 100);
  setTimeout(() => log.push(`timeout 150 at +${Date.now() - start}`), 150);
  const cancelled = setTimeout(() => log.push("never"), 50);
  clearTimeout(cancelled);
  queueMicrotask(() => log.push("microtask first"));
  await new Promise((r) => setTimeout(r, 24 * 3600 * 1000));
  log.push(`a day later: +${Date.now() - start}`);
  return log;
});
