// Oracle: URLSearchParams as Node's own tests check it (tools/node-tests): every method, getter
// and the iterator's next() refuse a receiver that is not one of theirs with ERR_INVALID_THIS
// before looking at their arguments; a Symbol name or value fails with V8's wording; util.inspect
// shows the pairs (`URLSearchParams { 'a' => 'b' }`, one a line past breakLength, `[Object]`
// below depth 0) and an iterator what it has yet to yield. Also an EventEmitter's
// too-many-listeners warning reaches process 'warning' with its emitter, type and count.
// (Before: the receiver went unchecked or failed with "not an object", the pairs printed as
// `URLSearchParams {}`, the iterator as `ParamsIterator [URLSearchParams Iterator] {}`, and the
// warning was only printed.)
import util from "node:util";
import { EventEmitter } from "node:events";

function thrown(f) {
  try { f(); return "no throw"; } catch (e) { return [e.name, e.code, e.message].join(" | "); }
}

export async function agent() {
  const sp = new URLSearchParams("?a=a&b=b&b=c");
  const brand = {};
  for (const m of ["append", "delete", "get", "getAll", "has", "set", "sort", "forEach", "entries", "keys",
    "values", "toString", util.inspect.custom]) {
    brand[String(m)] = [thrown(() => sp[m].call(undefined)), thrown(() => sp[m].call({}, "a", "b"))];
  }
  brand.size = thrown(() => Object.getOwnPropertyDescriptor(URLSearchParams.prototype, "size").get.call({}));
  brand.next = thrown(() => sp.keys().next.call({}));
  brand.iterInspect = thrown(() => sp.keys()[util.inspect.custom].call({}));
  const symbols = [thrown(() => sp.set(Symbol(), "b")), thrown(() => sp.append("a", Symbol("x"))),
    thrown(() => new URLSearchParams([[Symbol(), "1"]]))];
  const it = sp.entries();
  const shown = [util.inspect(sp), util.inspect(sp, { depth: -1 }), util.inspect(sp, { breakLength: 1 }),
    util.inspect(sp.keys()), util.inspect(sp.values()), util.inspect(sp.keys(), { breakLength: 1 }),
    util.inspect(it)];
  it.next();
  shown.push(util.inspect(it));
  it.next(); it.next();
  shown.push(util.inspect(it), util.inspect(new URLSearchParams()), util.inspect({ nested: { sp } }),
    util.inspect({ nested: { sp } }, { depth: 0 }), util.inspect(new URLSearchParams({ long: "x".repeat(130) })),
    util.inspect(new URLSearchParams("a=1&b=2"), { colors: true }));
  class Mine extends URLSearchParams {}
  shown.push(util.inspect(new Mine("q=1")));

  const warnings = [];
  process.on("warning", (w) => {
    if (w.name === "MaxListenersExceededWarning") {
      warnings.push([w.name, w.message, w.count, String(w.type), w.emitter === e, w instanceof Error]);
    }
  });
  const e = new EventEmitter();
  e.setMaxListeners(1);
  e.on("event-type", () => {});
  e.on("event-type", () => {});
  e.on("event-type", () => {}); // warned once per type
  const sym = Symbol("s");
  e.on(sym, () => {});
  e.on(sym, () => {});
  await new Promise((r) => setTimeout(r, 5));
  return JSON.stringify({ brand, symbols, shown, warnings }, null, 1);
}
