/* node/internal_abort.js — the DOM event model the Web surface needs: Event, CustomEvent,
 * EventTarget (capture flag, once/passive/signal options, handleEvent objects), AbortSignal
 * (abort, timeout on the run's virtual clock, any) and AbortController.
 *
 * There is no tree: dispatch reaches only the target. A listener that throws does not stop the
 * others; the error is reported on the console (Node would crash the process instead). */
(function (require, natives, name) {
  "use strict";
  const text = require("internal/text");
  const { codedError, invalidArgType, missingArgs, DOMException } = text;
  // On builtins captured before guest code (natives.primordials, docs/primordials.md): listener
  // lists, signal state and dispatch read no guest-writable property of their own objects.
  const P = natives.primordials, u = P.uncurry;
  const { ReflectApply, ReflectGetOwnPropertyDescriptor, StringCtor, ObjectKeys, ObjectFreeze, ObjectDefineProperty, ArrayIsArray, MapCtor, list, rec } = P;
  const WeakMapGet = u(P.WeakMapPrototypeGet), WeakMapSet = u(P.WeakMapPrototypeSet);
  const MapGet = u(P.MapPrototypeGet), MapSet = u(P.MapPrototypeSet), MapDelete = u(P.MapPrototypeDelete);
  const ArraySplice = u(P.ArrayPrototypeSplice);
  const push = (l, v) => { l[l.length] = v; };
  const copy = (l) => { const c = list(); for (let i = 0; i < l.length; i++) c[i] = l[i]; return c; };
  const tag = (C, name) => ObjectDefineProperty(C.prototype, Symbol.toStringTag, { __proto__: null, value: name, configurable: true });

  /* ---- Event ---- */

  const eventState = new WeakMap();

  function stateOf(ev) {
    const st = WeakMapGet(eventState, ev);
    if (!st) throw codedError(TypeError, "ERR_INVALID_THIS", "Value of \"this\" must be of type Event");
    return st;
  }

  // WebIDL's DOMString conversion as Node applies it: a Symbol is refused (String(sym) would not be)
  function domString(v) {
    if (typeof v === "symbol") {
      throw codedError(P.TypeErrorCtor, "ERR_INVALID_ARG_VALUE", "The argument 'value' is invalid. Received " + StringCtor(v));
    }
    return StringCtor(v);
  }
  // a string as a template literal makes one (a Symbol throws), without the template's
  // String.prototype.concat, which a guest may replace
  function templateString(v) {
    if (typeof v === "symbol") throw new P.TypeErrorCtor("Cannot convert a Symbol value to a string");
    return StringCtor(v);
  }
  const bothMissing = () => codedError(P.TypeErrorCtor, "ERR_MISSING_ARGS", "The \"type\" and \"listener\" arguments must be specified");
  const inspectCustom = require("internal/captures_util").SymbolFor("nodejs.util.inspect.custom"); // captured: a guest may replace Symbol

  class Event {
    constructor(type, options = undefined) {
      if (arguments.length === 0) throw missingArgs("type");
      if (options !== undefined && options !== null && typeof options !== "object")
        throw invalidArgType("options", "of type object", options);
      const o = options || { __proto__: null };
      WeakMapSet(eventState, this, { __proto__: null, 
        type: templateString(type), bubbles: !!o.bubbles, cancelable: !!o.cancelable, composed: !!o.composed,
        defaultPrevented: false, target: null, currentTarget: null, phase: 0, stop: false, stopNow: false,
        passive: false, dispatching: false, timeStamp: natives.now(),
      });
    }
    get type() { return stateOf(this).type; }
    get bubbles() { return stateOf(this).bubbles; }
    get cancelable() { return stateOf(this).cancelable; }
    get composed() { return stateOf(this).composed; }
    get defaultPrevented() { const st = stateOf(this); return st.cancelable && st.defaultPrevented; }
    get target() { return stateOf(this).target; }
    get currentTarget() { return stateOf(this).currentTarget; }
    get srcElement() { return stateOf(this).target; }
    get eventPhase() { return stateOf(this).phase; }
    get timeStamp() { return stateOf(this).timeStamp; }
    get isTrusted() { return false; }
    get returnValue() { const st = stateOf(this); return !(st.cancelable && st.defaultPrevented); }
    set returnValue(v) { if (!v) this.preventDefault(); }
    get cancelBubble() { return stateOf(this).stop; }
    set cancelBubble(v) { if (v) stateOf(this).stop = true; }
    preventDefault() { const st = stateOf(this); if (!st.passive) st.defaultPrevented = true; }
    stopPropagation() { stateOf(this).stop = true; }
    stopImmediatePropagation() { const st = stateOf(this); st.stop = true; st.stopNow = true; }
    composedPath() { const st = stateOf(this); return st.dispatching ? [st.currentTarget] : []; }
    initEvent(type, bubbles, cancelable) {
      const st = stateOf(this);
      if (st.dispatching) return;
      st.type = StringCtor(type); st.bubbles = !!bubbles; st.cancelable = !!cancelable;
    }
    // util.inspect: the class name alone below depth 0, else `Event { type, defaultPrevented,
    // cancelable, timeStamp }` (Node's layout), read from the event's state, not its getters.
    [inspectCustom](depth, options, inspect) {
      const st = stateOf(this);
      const d = ReflectGetOwnPropertyDescriptor(this.constructor, "name");
      const name = d !== undefined && P.ObjectHasOwn(d, "value") && typeof d.value === "string" ? d.value : "Event";
      if (depth < 0) return name;
      const opts = { __proto__: null };
      if (options !== null && typeof options === "object") {
        const keys = ObjectKeys(options);
        for (let i = 0; i < keys.length; i++) opts[keys[i]] = options[keys[i]];
      }
      if (typeof opts.depth === "number" && opts.depth % 1 === 0) opts.depth -= 1;
      return name + " " + inspect({ type: st.type, defaultPrevented: st.cancelable && st.defaultPrevented,
        cancelable: st.cancelable, timeStamp: st.timeStamp }, opts);
    }
  }
  const PHASES = { NONE: 0, CAPTURING_PHASE: 1, AT_TARGET: 2, BUBBLING_PHASE: 3 };
  const phaseNames = ObjectKeys(PHASES);
  for (let i = 0; i < phaseNames.length; i++) {
    ObjectDefineProperty(Event, phaseNames[i], { __proto__: null, value: PHASES[phaseNames[i]], enumerable: true });
  }
  tag(Event, "Event");

  const customDetail = new WeakMap();
  class CustomEvent extends Event {
    constructor(type, options = undefined) {
      if (arguments.length === 0) throw missingArgs("type");
      super(type, options);
      WeakMapSet(customDetail, this, options && options.detail !== undefined ? options.detail : null);
    }
    get detail() { return WeakMapGet(customDetail, this); }
  }
  tag(CustomEvent, "CustomEvent");

  /* ---- EventTarget ---- */

  const listenerMaps = new WeakMap(); // target -> Map(type -> [{listener, capture, once, passive, removed}])

  function listenersOf(target, create) {
    let map = WeakMapGet(listenerMaps, target);
    if (!map && create) {
      map = new MapCtor();
      WeakMapSet(listenerMaps, target, map);
    }
    return map;
  }

  function flags(options) {
    if (typeof options === "boolean") return { __proto__: null, capture: options, once: false, passive: false, signal: undefined };
    if (options === null || typeof options !== "object") return { __proto__: null, capture: false, once: false, passive: false, signal: undefined };
    return { __proto__: null, capture: !!options.capture, once: !!options.once, passive: !!options.passive, signal: options.signal };
  }

  function validListener(listener) {
    return typeof listener === "function" || (listener !== null && typeof listener === "object");
  }

  class EventTarget {
    constructor() {
      listenersOf(this, true);
    }
    addEventListener(type, listener, options) {
      checkTarget(this);
      if (arguments.length < 2) throw bothMissing();
      if (listener === null || listener === undefined) return;
      if (!validListener(listener)) throw invalidArgType("listener", "an instance of EventListener", listener);
      const f = flags(options);
      if (f.signal !== undefined && !(f.signal instanceof AbortSignal))
        throw invalidArgType("options.signal", "an instance of AbortSignal", f.signal);
      if (f.signal && f.signal.aborted) return;
      type = domString(type);
      const map = listenersOf(this, true);
      let l = MapGet(map, type);
      if (!l) { l = list(); MapSet(map, type, l); }
      for (let i = 0; i < l.length; i++) if (l[i].listener === listener && l[i].capture === f.capture) return;
      const record = { __proto__: null, listener, capture: f.capture, once: f.once, passive: f.passive, removed: false, resist: false };
      push(l, record);
      if (f.signal) {
        // runs even when an earlier abort listener stopped the event's immediate propagation
        const remove = () => this.removeEventListener(type, listener, { __proto__: null, capture: f.capture });
        const sm = listenersOf(f.signal, true);
        let sl = MapGet(sm, "abort");
        if (!sl) { sl = list(); MapSet(sm, "abort", sl); }
        push(sl, { __proto__: null, listener: remove, capture: false, once: true, passive: false, removed: false, resist: true });
      }
    }
    removeEventListener(type, listener, options) {
      checkTarget(this);
      if (arguments.length < 2) throw bothMissing();
      if (listener === null || listener === undefined) return;
      const map = listenersOf(this, false);
      if (!map) return;
      type = domString(type);
      const l = MapGet(map, type);
      if (!l) return;
      const capture = flags(options).capture;
      for (let i = 0; i < l.length; i++) {
        if (l[i].listener === listener && l[i].capture === capture) {
          l[i].removed = true;
          ArraySplice(l, i, 1);
          if (l.length === 0) MapDelete(map, type);
          return;
        }
      }
    }
    dispatchEvent(event) {
      checkTarget(this);
      if (arguments.length < 1) throw missingArgs("event");
      if (!(event instanceof Event)) throw invalidArgType("event", "an instance of Event", event);
      const st = WeakMapGet(eventState, event);
      if (st.dispatching) throw codedError(Error, "ERR_EVENT_RECURSION", "The event \"" + st.type + "\" is already being dispatched");
      st.dispatching = true;
      st.target = this;
      st.currentTarget = this;
      st.phase = 2;
      const map = listenersOf(this, false);
      const l0 = map && MapGet(map, st.type);
      if (l0) {
        const snapshot = copy(l0);
        for (let i = 0; i < snapshot.length; i++) {
          const record = snapshot[i];
          if (record.removed || (st.stopNow && !record.resist)) continue;
          if (record.once) this.removeEventListener(st.type, record.listener, { __proto__: null, capture: record.capture });
          st.passive = record.passive;
          try {
            const l = record.listener;
            if (typeof l === "function") ReflectApply(l, this, [event]);
            else if (typeof l.handleEvent === "function") ReflectApply(l.handleEvent, l, [event]);
          } catch (err) {
            reportListenerError(err);
          }
          st.passive = false;
        }
      }
      st.dispatching = false;
      st.currentTarget = null;
      st.phase = 0;
      return !(st.cancelable && st.defaultPrevented);
    }
  }
  tag(EventTarget, "EventTarget");
  // WebIDL operations are enumerable (Object.keys(EventTarget.prototype) lists the three)
  const OPERATIONS = list();
  OPERATIONS[0] = "addEventListener"; OPERATIONS[1] = "removeEventListener"; OPERATIONS[2] = "dispatchEvent";
  for (let i = 0; i < OPERATIONS.length; i++) {
    const key = OPERATIONS[i];
    const d = ReflectGetOwnPropertyDescriptor(EventTarget.prototype, key);
    ObjectDefineProperty(EventTarget.prototype, key, { __proto__: null, value: d.value, writable: true, enumerable: true, configurable: true });
  }
  function checkTarget(t) {
    if (!isEventTarget(t)) throw codedError(P.TypeErrorCtor, "ERR_INVALID_THIS", "Value of \"this\" must be of type EventTarget");
  }

  function reportListenerError(err) {
    try {
      globalThis.console.error("Uncaught exception in an event listener:", err);
    } catch (_) { /* nothing more to do */ }
  }

  // Whether v is an EventTarget of ours (each has its listener map from construction).
  function isEventTarget(v) {
    return (typeof v === "object" || typeof v === "function") && v !== null && WeakMapGet(listenerMaps, v) !== undefined;
  }

  // An EventTarget's listener limit as events.setMaxListeners(n, target) set it (undefined: the
  // default), for events.getMaxListeners.
  const maxListeners = new WeakMap();
  const maxListenersOf = (t) => WeakMapGet(maxListeners, t);
  const setMaxListenersOf = (t, n) => { WeakMapSet(maxListeners, t, n); };

  // The listeners of an EventTarget for events.getEventListeners.
  function getEventListeners(target, type) {
    const map = WeakMapGet(listenerMaps, target);
    if (!map) return [];
    const l = MapGet(map, StringCtor(type)), out = [];
    if (l) for (let i = 0; i < l.length; i++) P.defineValue(out, i, l[i].listener);
    return out;
  }

  /* ---- AbortSignal / AbortController ---- */

  const signalState = new WeakMap();
  let constructing = false;

  function signalOf(s) {
    const st = WeakMapGet(signalState, s);
    if (!st) throw codedError(TypeError, "ERR_INVALID_THIS", "Value of \"this\" must be of type AbortSignal");
    return st;
  }

  function newSignal() {
    constructing = true;
    try {
      return new AbortSignal();
    } finally {
      constructing = false;
    }
  }

  function abortSignal(signal, reason) {
    const st = signalOf(signal);
    if (st.aborted) return;
    st.aborted = true;
    st.reason = reason;
    const followers = st.followers;
    st.followers = list();
    const ev = new Event("abort");
    signal.dispatchEvent(ev);
    for (let i = 0; i < followers.length; i++) {
      const f = followers[i];
      const dependent = f.deref ? f.deref() : f;
      if (dependent) abortSignal(dependent, reason);
    }
  }

  class AbortSignal extends EventTarget {
    constructor() {
      if (!constructing) throw codedError(TypeError, "ERR_ILLEGAL_CONSTRUCTOR", "Illegal constructor");
      super();
      WeakMapSet(signalState, this, { __proto__: null, aborted: false, reason: undefined, onabort: null, onabortListener: null, followers: list() });
    }
    get aborted() { return signalOf(this).aborted; }
    get reason() { return signalOf(this).reason; }
    throwIfAborted() {
      const st = signalOf(this);
      if (st.aborted) throw st.reason;
    }
    get onabort() { return signalOf(this).onabort; }
    set onabort(fn) {
      const st = signalOf(this);
      if (st.onabortListener) this.removeEventListener("abort", st.onabortListener);
      st.onabort = typeof fn === "function" || (fn !== null && typeof fn === "object") ? fn : null;
      st.onabortListener = null;
      if (typeof st.onabort === "function") {
        const handler = st.onabort;
        st.onabortListener = function (ev) { return ReflectApply(handler, this, [ev]); };
        this.addEventListener("abort", st.onabortListener);
      }
    }
    static abort(reason) {
      const s = newSignal();
      const st = signalOf(s);
      st.aborted = true;
      st.reason = reason === undefined ? new DOMException("This operation was aborted", "AbortError") : reason;
      return s;
    }
    static timeout(ms) {
      if (typeof ms !== "number") throw invalidArgType("delay", "of type number", ms);
      if (!(ms >= 0 && ms <= 4294967295))
        throw codedError(RangeError, "ERR_OUT_OF_RANGE",
          "The value of \"delay\" is out of range. It must be >= 0 && <= 4294967295. Received " + String(ms));
      const s = newSignal();
      natives.addTimer(() => abortSignal(s, new DOMException("The operation was aborted due to timeout", "TimeoutError")),
        ms, [], false);
      return s;
    }
    static any(signals) {
      if (signals === null || typeof signals !== "object" || typeof signals[Symbol.iterator] !== "function")
        throw invalidArgType("signals", "an instance of Array", signals);
      const all = list(); // the guest's iterable, read by index when it is an array
      if (ArrayIsArray(signals)) { for (let i = 0; i < signals.length; i++) push(all, signals[i]); }
      else for (const x of signals) push(all, x);
      for (let i = 0; i < all.length; i++) {
        if (!(all[i] instanceof AbortSignal)) throw invalidArgType("signals[" + i + "]", "an instance of AbortSignal", all[i]);
      }
      const s = newSignal();
      for (let i = 0; i < all.length; i++) {
        const source = signalOf(all[i]);
        if (source.aborted) {
          const st = signalOf(s);
          st.aborted = true;
          st.reason = source.reason;
          return s;
        }
      }
      for (let i = 0; i < all.length; i++) push(signalOf(all[i]).followers, s);
      return s;
    }
  }
  tag(AbortSignal, "AbortSignal");

  const controllerSignal = new WeakMap();

  class AbortController {
    constructor() {
      WeakMapSet(controllerSignal, this, newSignal());
    }
    get signal() {
      const s = WeakMapGet(controllerSignal, this);
      if (!s) throw codedError(TypeError, "ERR_INVALID_THIS", "Value of \"this\" must be of type AbortController");
      return s;
    }
    abort(reason) {
      abortSignal(this.signal, reason === undefined ? new DOMException("This operation was aborted", "AbortError") : reason);
    }
  }
  tag(AbortController, "AbortController");

  // Node's AbortError for APIs that take a signal (events.once/on, timers/promises).
  function abortError(signal) {
    const err = new Error("The operation was aborted");
    err.name = "AbortError";
    err.code = "ABORT_ERR";
    if (signal && signal.reason !== undefined) err.cause = signal.reason;
    return err;
  }

  return ObjectFreeze({
    Event, CustomEvent, EventTarget, AbortSignal, AbortController, DOMException, getEventListeners, isEventTarget, maxListenersOf, setMaxListenersOf, abortError,
  });
})
