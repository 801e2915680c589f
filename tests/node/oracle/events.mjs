// Oracle: node:events EventEmitter ordering, once/prepend, error semantics, statics.
import EventEmitter, { once, on, errorMonitor, getEventListeners } from "node:events";
import * as events from "events";

const attempt = (f) => {
  try { return { ok: f() }; } catch (e) { return { name: e.name, message: e.message, code: e.code, ctor: e.constructor.name }; }
};

export async function agent() {
  const out = {};
  const log = [];
  const e = new EventEmitter();
  out.fresh = { keys: Object.keys(e), max: e.getMaxListeners(), names: e.eventNames(), count: e.listenerCount("x") };
  e.on("newListener", (type, l) => log.push("new:" + String(type) + ":" + (l.name || "anon")));
  e.on("removeListener", (type, l) => log.push("removed:" + String(type) + ":" + (l.name || "anon")));
  function a(...args) { log.push("a" + JSON.stringify(args) + (this === e)); }
  function b() { log.push("b"); }
  function c() { log.push("c"); }
  e.on("x", a);
  e.prependListener("x", b);
  e.once("x", c);
  e.prependOnceListener("x", function d() { log.push("d"); });
  out.names = e.eventNames();
  out.listeners = e.listeners("x").map((f) => f.name);
  out.raw = e.rawListeners("x").map((f) => f.name === "" || f.listener ? "wrapped:" + f.listener.name : f.name);
  out.counts = [e.listenerCount("x"), e.listenerCount("x", a), e.listenerCount("x", c), e.listenerCount("nope"), EventEmitter.listenerCount(e, "x")];
  out.emit1 = e.emit("x", 1, "two");
  out.emit2 = e.emit("x", 3);
  out.emitNone = e.emit("nothing");
  e.off("x", a);
  e.removeListener("x", a);
  e.removeListener("x", () => {});
  out.afterOff = e.listeners("x").map((f) => f.name);
  e.on("y", a); e.on("y", b); e.on(Symbol.for("s"), c);
  out.namesSym = e.eventNames().map(String);
  e.removeAllListeners("y");
  out.afterRemoveAllY = e.eventNames().map(String);
  e.removeAllListeners();
  out.afterRemoveAll = e.eventNames().map(String);
  out.log = log;

  // the same listener added twice fires twice; removal takes the last one added
  const twice = new EventEmitter();
  let n = 0;
  const inc = () => n++;
  twice.on("t", inc); twice.on("t", inc); twice.emit("t"); twice.removeListener("t", inc); twice.emit("t");
  out.twice = n;

  // listeners added or removed during emit do not affect that emit
  const during = new EventEmitter();
  const seen = [];
  during.on("z", function first() { seen.push("first"); during.on("z", () => seen.push("late")); during.removeListener("z", second); });
  function second() { seen.push("second"); }
  during.on("z", second);
  during.emit("z");
  during.emit("z");
  out.during = seen;

  // error semantics
  const err = new EventEmitter();
  out.errors = [
    attempt(() => err.emit("error", new TypeError("boom"))),
    attempt(() => err.emit("error", "boom")),
    attempt(() => err.emit("error")),
    attempt(() => err.emit("error", { a: 1 })),
    attempt(() => err.emit("error", 42)),
    attempt(() => err.on("x", 1)),
    attempt(() => err.once("x", "s")),
    attempt(() => err.setMaxListeners(-1)),
    attempt(() => err.setMaxListeners("3")),
    attempt(() => { EventEmitter.defaultMaxListeners = "a"; }),
  ];
  try { err.emit("error", "ctx"); } catch (x) { out.errorContext = [x.context, Object.keys(x)]; }
  const monitored = [];
  err.on(errorMonitor, (x) => monitored.push("monitor:" + x.message));
  err.on("error", (x) => monitored.push("handler:" + x.message));
  out.errorHandled = err.emit("error", new Error("handled"));
  out.monitored = monitored;
  out.max = [err.setMaxListeners(3) === err, err.getMaxListeners(), EventEmitter.defaultMaxListeners, typeof errorMonitor, String(errorMonitor),
    String(EventEmitter.captureRejectionSymbol), EventEmitter.captureRejections];

  // subclassing, old-style inheritance, and the module shape
  class Sub extends EventEmitter { constructor() { super(); this.kind = "sub"; } }
  const s = new Sub();
  let got;
  s.on("hi", (v) => { got = v; });
  s.emit("hi", 7);
  function Old() { EventEmitter.call(this); }
  Object.setPrototypeOf(Old.prototype, EventEmitter.prototype);
  const o = new Old();
  o.once("q", (v) => { got += v; });
  o.emit("q", 1); o.emit("q", 100);
  out.subclass = [got, s instanceof EventEmitter, o instanceof EventEmitter, s.kind, Object.keys(s).filter((k) => k[0] !== "_")];
  out.shape = [events.default === EventEmitter, events.EventEmitter === EventEmitter, EventEmitter.EventEmitter === EventEmitter,
    typeof events.once, typeof events.on, typeof events.getEventListeners, typeof events.setMaxListeners, events.usingDomains];

  // static once / on
  const se = new EventEmitter();
  setTimeout(() => se.emit("ready", 1, 2), 5);
  out.once = await once(se, "ready");
  setTimeout(() => se.emit("error", new Error("failed")), 5);
  out.onceError = await once(se, "ready").then(() => "resolved", (x) => "rejected:" + x.message);
  out.onceCleanup = [se.listenerCount("ready"), se.listenerCount("error")];
  const ac = new AbortController();
  const pending = once(se, "never", { signal: ac.signal });
  ac.abort();
  out.onceAbort = await pending.then(() => "resolved", (x) => [x.name, x.code, x.message]);
  const et = new EventTarget();
  setTimeout(() => et.dispatchEvent(new Event("ping")), 1);
  const [ev] = await once(et, "ping");
  out.onceTarget = ev.type;

  const it = new EventEmitter();
  setTimeout(() => { it.emit("data", 1); it.emit("data", 2); it.emit("data", 3); }, 1);
  const items = [];
  for await (const [v] of on(it, "data")) { items.push(v); if (v === 3) break; }
  out.onIter = [items, it.listenerCount("data"), it.listenerCount("error")];
  const it2 = new EventEmitter();
  setTimeout(() => { it2.emit("data", "x"); it2.emit("error", new Error("stop")); }, 1);
  const items2 = [];
  try { for await (const [v] of on(it2, "data")) items2.push(v); } catch (x) { items2.push("error:" + x.message); }
  out.onIterError = items2;

  out.getEventListeners = [getEventListeners(e, "x").length, getEventListeners(it, "data").length];
  const withListener = new EventTarget();
  const fl = () => {};
  withListener.addEventListener("foo", fl);
  out.getEventListenersTarget = getEventListeners(withListener, "foo").length;
  return out;
}
