// Oracle: util.inspect of promises and of Map/Set iterators, as a hand run of Node's
// test-util-inspect.js found them (before: "Promise { <unknown> }" and "<items unknown>"). The
// state and the items come from the engine: inspecting never settles, consumes or moves anything.
import util from "node:util";

export async function agent() {
  const out = {};
  const rejected = Promise.reject(new RangeError("quota spent"));
  rejected.catch(() => {});
  const labelled = Promise.resolve({ plan: ["fetch", "summarise"] });
  labelled.owner = "planner";
  class Job extends Promise {}
  out.promises = [
    util.inspect(Promise.resolve(41)),
    util.inspect(rejected).split("\n")[0],
    util.inspect(Promise.reject(0).catch(() => {}) && new Promise(() => {})),
    util.inspect(labelled),
    util.inspect(new Job(() => {})),
    util.inspect(Object.create(Promise.prototype)),
    util.inspect({ later: Promise.resolve({ a: { b: { c: { d: 1 } } } }) }),
    util.inspect(Promise.resolve(Promise.resolve)),
    util.inspect([Promise.resolve("x")], { compact: false }),
  ];
  out.isPromise = [util.types.isPromise(Promise.resolve()), util.types.isPromise(Object.create(Promise.prototype)),
    util.types.isPromise({ then() {} }), util.types.isPromise(new Job(() => {}))];
  // a promise seen before and after it settles
  let settle;
  const gate = new Promise((r) => { settle = r; });
  const before = util.inspect(gate);
  settle("open");
  await gate;
  out.settling = [before, util.inspect(gate)];

  const inventory = new Map([["apples", 3], ["pears", { crates: [1, 2] }], ["plums", 0]]);
  const walked = inventory.entries();
  walked.next();
  const tags = new Set(["red", "ripe", "local"]);
  const relabelled = tags.entries();
  Object.defineProperty(relabelled, Symbol.toStringTag, { value: "Basket" });
  const drained = inventory.keys();
  for (const _ of drained);
  const many = new Set(Array.from({ length: 130 }, (_, i) => i * 2));
  out.iterators = [
    util.inspect(inventory.keys()),
    util.inspect(inventory.values()),
    util.inspect(walked),
    util.inspect(walked),
    util.inspect(tags.values()),
    util.inspect(relabelled),
    util.inspect(drained),
    util.inspect(many.values()),
    util.inspect(inventory.entries(), { maxArrayLength: 1 }),
    util.inspect(inventory.entries(), { compact: false }),
    util.inspect({ deep: { deeper: inventory.values() } }, { depth: 1 }),
    util.inspect(tags.keys(), { maxArrayLength: 0 }),
  ];
  // inspecting did not move the iterator: what next() gives is what was shown
  out.afterInspect = [...walked];
  out.kinds = [util.types.isMapIterator(inventory.keys()), util.types.isSetIterator(inventory.keys()),
    util.types.isSetIterator(relabelled), util.types.isMapIterator({ [Symbol.toStringTag]: "Map Iterator" })];
  return JSON.stringify(out, null, 1);
}
