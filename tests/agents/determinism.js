//! stdout-contains: "random"
// Everything here is a function of the captured seed and clock start (see cases.py).
import { run } from "chidori:agent";

run(async () => {
  const order = [];
  const t0 = Date.now();
  await new Promise((resolve) => {
    setTimeout(() => order.push("b@" + (Date.now() - t0)), 20);
    setTimeout(() => order.push("a@" + (Date.now() - t0)), 10);
    setTimeout(() => { order.push("c@" + (Date.now() - t0)); resolve(); }, 20);
  });
  return {
    random: [Math.random(), Math.random(), Math.random()],
    now: Date.now(),
    date: new Date().toString(),
    offset: new Date().getTimezoneOffset(),
    order,
  };
});
