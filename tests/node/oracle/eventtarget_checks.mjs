// Oracle: EventTarget and Event details Node's test-eventtarget.js checks (tools/node-tests): the
// three methods refuse a receiver that is no EventTarget (ERR_INVALID_THIS) and a Symbol type,
// name both missing arguments; an event stopped before dispatch reaches no listener, while a
// listener's `signal` still removes it when an abort listener stopped propagation; Event.length
// is 1 and `new Event(Symbol())` throws; EventTarget's operations are enumerable; util.inspect
// of an Event is its name below depth 0 and Node's layout above. (Before: none of these.)
import { inspect } from "node:util";

function t(f) {
  try { return f(); } catch (e) { return ["throws", e.name, e.code, e.message]; }
}

export async function agent() {
  const out = {};
  out.symbolType = t(() => new Event(Symbol())).slice(0, 2);
  {
    const target = new EventTarget(), event = new Event("foo");
    event.stopImmediatePropagation();
    let called = 0;
    target.addEventListener("foo", () => called++);
    out.stoppedBefore = [target.dispatchEvent(event), called];
  }
  {
    const target = new EventTarget(), target2 = new EventTarget(), event = new Event("foo");
    out.otherThis = t(() => target.dispatchEvent.call(target2, event));
    out.badThis = ["foo", {}, [], 1, null, undefined, false, Symbol(), /a/].map((v) => [
      t(() => target.dispatchEvent.call(v, event)), t(() => target.addEventListener.call(v, "x", () => {})),
      t(() => target.removeEventListener.call(v, "x", () => {}))]);
  }
  out.statics = [Event.NONE, Event.CAPTURING_PHASE, Event.AT_TARGET, Event.BUBBLING_PHASE, new Event("foo").eventPhase,
    Event.length, CustomEvent.length];
  {
    const et = new EventTarget();
    out.keys = [Object.keys(et), Object.getOwnPropertyNames(et), Object.keys(Object.getPrototypeOf(et)).sort()];
  }
  class MyEvent extends Event {}
  out.inspected = [inspect(new Event("test"), { depth: -1 }), inspect(new MyEvent("x"), { depth: -1 }),
    inspect([[new Event("y")]], { depth: 0 }), inspect(new Event("test"), { depth: 1 }).split("\n").slice(0, 4)];
  {
    const et = new EventTarget();
    out.missing = [t(() => et.addEventListener()), t(() => et.addEventListener("foo")), t(() => et.removeEventListener()),
      t(() => et.removeEventListener("foo")), t(() => et.dispatchEvent()), t(() => et.removeEventListener("foo", null))];
    out.symbols = [t(() => et.addEventListener(Symbol("symbol"), () => {})), t(() => et.removeEventListener(Symbol("symbol"), () => {}))];
  }
  {
    const controller = new AbortController();
    const { signal } = controller;
    const seen = [];
    signal.addEventListener("abort", (e) => { seen.push("first"); e.stopImmediatePropagation(); }, { once: true });
    signal.addEventListener("abort", () => seen.push("second"));
    const et = new EventTarget();
    let n = 0;
    et.addEventListener("foo", () => n++, { signal });
    controller.abort();
    et.dispatchEvent(new Event("foo"));
    out.signalRemoval = [n, seen];
  }
  {
    const et = new EventTarget();
    const seen = [];
    et.addEventListener("foo", (e) => { seen.push(1); e.stopImmediatePropagation(); });
    et.addEventListener("foo", () => seen.push(2));
    const ev = new Event("foo");
    et.dispatchEvent(ev);
    et.dispatchEvent(new Event("foo"));
    out.stopInside = seen;
  }
  return out;
}
