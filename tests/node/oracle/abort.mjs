// Oracle: Event, EventTarget, AbortController/AbortSignal, DOMException shapes (globals).
const attempt = (f) => {
  try { return { ok: f() }; } catch (e) { return { name: e.name, message: e.message, code: e.code, ctor: e.constructor.name }; }
};

export async function agent() {
  const out = {};
  out.illegal = attempt(() => new AbortSignal());
  const s = AbortSignal.abort();
  out.abortStatic = [s.aborted, s.reason.name, s.reason.message, s.reason.code, s.reason instanceof Error,
    attempt(() => s.throwIfAborted()), Object.prototype.toString.call(s.reason)];
  out.abortReason = [AbortSignal.abort("why").reason, AbortSignal.abort(null).reason];
  const ev = new Event("x");
  out.event = [ev.type, ev.bubbles, ev.cancelable, ev.defaultPrevented, ev.eventPhase, ev.target, ev.currentTarget,
    ev.isTrusted, ev.returnValue, ev.cancelBubble, ev.composed, String(ev), Event.NONE, Event.AT_TARGET, Event.BUBBLING_PHASE];
  out.eventErrors = [attempt(() => new Event()), attempt(() => new EventTarget().dispatchEvent({ type: "x" })),
    attempt(() => new EventTarget().addEventListener("x", 1))];

  const et = new EventTarget();
  const log = [];
  const l1 = (e) => log.push("l1:" + e.eventPhase + ":" + (e.target === et) + (e.currentTarget === et));
  et.addEventListener("x", l1);
  et.addEventListener("x", l1);
  et.addEventListener("x", { handleEvent(e) { log.push("obj:" + (this !== et)); } }, { once: true });
  et.addEventListener("x", function named() { log.push("fn:" + (this === et)); });
  et.addEventListener("x", null);
  out.dispatch = [et.dispatchEvent(new Event("x")), et.dispatchEvent(new Event("x")), log];

  const e2 = new Event("y", { cancelable: true });
  et.addEventListener("y", (e) => e.preventDefault());
  out.cancel = [et.dispatchEvent(e2), e2.defaultPrevented, e2.returnValue, e2.eventPhase, e2.target === et, e2.currentTarget];
  const e3 = new Event("y");
  out.notCancelable = [et.dispatchEvent(e3), e3.defaultPrevented];

  const stopLog = [];
  et.addEventListener("s", (e) => { stopLog.push(1); e.stopImmediatePropagation(); });
  et.addEventListener("s", () => stopLog.push(2));
  et.dispatchEvent(new Event("s"));
  out.stopImmediate = stopLog;

  const removeLog = [];
  const r2 = () => removeLog.push("r2");
  et.addEventListener("r", () => { removeLog.push("r1"); et.removeEventListener("r", r2); });
  et.addEventListener("r", r2);
  et.dispatchEvent(new Event("r"));
  out.removeDuring = removeLog;

  const sigLog = [];
  const ctl = new AbortController();
  et.addEventListener("g", () => sigLog.push("g"), { signal: ctl.signal });
  et.dispatchEvent(new Event("g"));
  ctl.abort();
  et.dispatchEvent(new Event("g"));
  et.addEventListener("g", () => sigLog.push("never"), { signal: ctl.signal });
  et.dispatchEvent(new Event("g"));
  out.signalOption = sigLog;

  const c = new AbortController();
  const alog = [];
  c.signal.onabort = (e) => alog.push("onabort:" + e.type);
  c.signal.addEventListener("abort", (e) => alog.push("listener:" + e.type + ":" + e.constructor.name + ":" + (e.target === c.signal)));
  c.abort("why");
  alog.push(c.signal.reason, c.signal.aborted);
  c.abort("again");
  alog.push(c.signal.reason);
  out.controller = [alog, Object.keys(c), typeof c.signal.onabort, String(c.signal), String(c), attempt(() => c.signal.throwIfAborted())];

  const a = AbortSignal.any([c.signal]);
  out.anyAborted = [a.aborted, a.reason];
  const d = new AbortController();
  const other = new AbortController();
  const any = AbortSignal.any([other.signal, d.signal]);
  const anyLog = [];
  any.onabort = () => anyLog.push("any:" + any.reason.name);
  d.abort();
  other.abort("late");
  out.any = [any.aborted, anyLog, any.reason === d.signal.reason];
  out.staticErrors = [attempt(() => AbortSignal.timeout(-1)), attempt(() => AbortSignal.any([1])),
    attempt(() => AbortSignal.timeout("a"))];

  const ts = AbortSignal.timeout(10);
  const before = ts.aborted;
  const keepAlive = setTimeout(() => {}, 50); // Node does not wait for AbortSignal.timeout's timer
  await new Promise((resolve) => { ts.onabort = resolve; });
  clearTimeout(keepAlive);
  out.timeout = [before, ts.aborted, ts.reason.name, ts.reason.message, ts.reason.code];

  out.strings = [String(new EventTarget()), Object.prototype.toString.call(new AbortController().signal)];
  return out;
}
