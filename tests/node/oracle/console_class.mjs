// Oracle: node:console — the module is the global console, and its Console class writes entries
// formatted as console.log formats them to a stream the agent hands it (here an object that
// collects lines), with groups, counters, tables, colours, inspect options and failing streams.
// (Before: "unknown built-in" for node:console.)
import consoleModule, { Console } from "node:console";

function sink() {
  const lines = [];
  return {
    lines,
    stream: { write: (text) => { lines.push(text); return true; }, once() {}, removeListener() {}, listenerCount: () => 0 },
  };
}

export async function agent() {
  const out = {};
  out.identity = [consoleModule === globalThis.console, Console === consoleModule.Console, typeof Console.prototype.log];

  const report = sink(), problems = sink();
  const c = new Console(report.stream, problems.stream);
  c.log("%s shipped %d crates", "north", 12, { late: false });
  c.info("info line");
  c.debug("debug line");
  c.warn("low stock: %o", ["pears"]);
  c.error(new RangeError("bin 7 missing").message);
  c.group("warehouse %s", "B");
  c.log("shelf\nrow");
  c.groupCollapsed();
  c.table([{ sku: "a-1", qty: 3 }, { sku: "b-2", qty: 0 }]);
  c.groupEnd();
  c.count("scans");
  c.count("scans");
  c.countReset("scans");
  c.count("scans");
  c.groupEnd();
  c.dir({ crate: { lid: { nails: { count: 4 } } } }, { depth: 1 });
  c.dirxml("x", 2);
  c.assert(1 === 1, "never shown");
  c.assert(false, "checksum %s", "mismatch");
  out.stdout = report.lines;
  out.stderr = problems.lines;

  // bound methods, instanceof, calling without new, the options form
  const loose = sink();
  const { log } = Console({ stdout: loose.stream, groupIndentation: 4, inspectOptions: { depth: 0, breakLength: 20 } });
  log({ nested: { deep: true } }, "after");
  const wide = new Console({ stdout: loose.stream, groupIndentation: 4 });
  wide.group();
  wide.log("indented\ntwice");
  wide.groupEnd();
  wide.log("flush");
  new Console({ stdout: loose.stream, colorMode: true }).log({ n: 1, s: "x" });
  new Console({ stdout: loose.stream, colorMode: false }).log({ n: 1 });
  out.options = loose.lines;
  out.shape = [wide instanceof Console, Object.keys(wide)];

  // streams that fail: ignored by default, thrown with ignoreErrors: false, and one with no
  // listenerCount (Node writes nothing to it)
  const broken = { write() { throw new Error("disk gone"); }, once() {}, removeListener() {}, listenerCount: () => 0 };
  new Console(broken).log("lost");
  let thrown = null;
  try { new Console({ stdout: broken, ignoreErrors: false }).log("lost"); } catch (e) { thrown = e.message; }
  const bare = [];
  new Console({ write: (t) => bare.push(t), removeListener() {} }).log("dropped");
  out.failing = [thrown, bare];

  const errors = [];
  for (const make of [() => new Console(), () => new Console({}), () => new Console({ stdout: report.stream, colorMode: "sometimes" }),
    () => new Console({ stdout: report.stream, groupIndentation: 1001 }), () => new Console({ stdout: report.stream, groupIndentation: "2" }),
    () => new Console({ stdout: report.stream, inspectOptions: 5 }), () => new Console(report.stream, 42)]) {
    try { make(); errors.push("no error"); } catch (e) { errors.push(String(e)); }
  }
  out.errors = errors;
  return JSON.stringify(out, null, 1);
}
