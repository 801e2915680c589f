//! mode: eval
//! isolation: both
//! stdout-file: console_more.out
// console's other methods print what Node prints (console_more.out is Node 20's output of this
// same file, checked by tests/cases_node_surface2.py): count/countReset, group nesting (two spaces
// per level on every line of an entry), table's box drawing for arrays, objects, maps, sets,
// properties and wide characters, assert's message formatting, dir without custom inspect, dirxml,
// and the nextTick/promise ordering. Timer output is only the label here (Node's durations are real
// time); tests/cases_node_surface2.py pins our virtual-clock durations.
console.count();
console.count();
console.count("x");
console.count(undefined);
console.countReset();
console.count();
console.group("outer %s", "label");
console.log("in one");
console.log("two\nlines");
console.group();
console.log({ a: 1, b: [1, 2] });
console.groupCollapsed("collapsed");
console.info("deep");
console.groupEnd();
console.groupEnd();
console.log("back to one");
console.groupEnd();
console.groupEnd();
console.log("no indent");
console.table([{ a: 1, b: "Y" }, { a: "Z", b: 2 }]);
console.table([[1, 2], [3, 4, 5]]);
console.table({ r1: { c: 1 }, r2: { d: [1, 2, 3, 4] }, r3: 7 });
console.table([{ a: 1, b: 2 }, { a: 3, c: 4 }], ["a", "c"]);
console.table(new Map([["k1", { v: 1 }], [{ o: 1 }, "v2"]]));
console.table(new Set([1, "two", [3]]));
console.table([1, "s", null, undefined, { x: { y: { z: 1 } } }]);
console.table({ wide: "日本語", mix: "aé" });
console.table([]);
console.table(5);
console.table("text");
console.table([{ nested: { p: 1, q: 2, r: 3 } }]);
console.table(new Map([["a", 1]]).entries());
console.table(new Set(["s"]).values());
console.group("in a group");
console.table([{ a: 1 }]);
console.groupEnd();
console.assert(true, "never");
console.dir({ a: { b: { c: { d: 1 } } } }, { depth: 0 });
console.dir({ [Symbol.for("nodejs.util.inspect.custom")]() { return "custom!"; }, k: 1 });
console.dir({ [Symbol.for("nodejs.util.inspect.custom")]() { return "custom!"; } }, { customInspect: true });
console.dirxml("x", { y: 1 }, [2]);
const order = [];
process.nextTick(() => order.push("tick1"));
Promise.resolve().then(() => order.push("promise1"));
process.nextTick(() => { order.push("tick2"); Promise.resolve().then(() => order.push("promise-from-tick")); process.nextTick(() => order.push("tick-from-tick")); });
setTimeout(() => {
  console.log("top level:", order.join(","));
  const o2 = [];
  Promise.resolve().then(() => o2.push("p"));
  process.nextTick(() => o2.push("t"));
  queueMicrotask(() => o2.push("q"));
  process.nextTick(() => o2.push("t2"));
  setTimeout(() => {
    console.log("in a timer:", o2.join(","));
    (async () => {
      const o3 = [];
      await null;
      process.nextTick(() => o3.push("t"));
      Promise.resolve().then(() => o3.push("p")).then(() => o3.push("p2"));
      await new Promise((r) => setTimeout(r, 1));
      console.log("in an async function:", o3.join(","));
    })();
  }, 1);
}, 1);
