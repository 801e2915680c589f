/* node/events.js — node:events: EventEmitter with Node's observable behaviour (listener order,
 * once wrappers, 'error' semantics, newListener/removeListener events, max-listener warnings),
 * the static helpers once/on/getEventListeners/setMaxListeners/addAbortListener, and EventTarget
 * and Event re-exported from internal/abort.
 *
 * Pure JavaScript over guest objects. Listeners are stored the way Node stores them (a function,
 * or an array once there are two), on `_events`, because libraries read those fields. */
(function (require, natives, name) {
  "use strict";
  const abort = require("internal/abort");
  const abortError = abort.abortError;
  const { codedError, invalidArgType } = require("internal/captures_util");
  // emit and the listener lists run on builtins captured before guest code (primordials.js)
  const P = natives.primordials, u = P.uncurry;
  const { ReflectApply, ReflectOwnKeys, argsWith } = P;
  const FunctionBind = u(P.FunctionPrototypeBind), defineValue = P.defineValue;
  // The listener lists are the guest's to read (libraries do), so they stay ordinary arrays; they
  // change only by definition or by writes to their own indices (no setter a guest put on
  // Array.prototype runs, and no Array.prototype.constructor is consulted as push/splice/slice would).
  function listPrepend(a, v) {
    for (let i = a.length; i > 0; i--) defineValue(a, i, a[i - 1]);
    defineValue(a, 0, v);
  }
  function listRemoveAt(a, at) {
    for (let i = at; i < a.length - 1; i++) a[i] = a[i + 1];
    a.length = a.length - 1;
  }
  // the rest of what this file uses, captured before guest code too (internal/captures_util)
  const C = require("internal/captures_util");
  const { ObjectGetPrototypeOf, ObjectSetPrototypeOf, ObjectCreate, ObjectDefineProperty, ObjectKeys, ObjectFreeze, NumberIsNaN, StringCtor,
    SymbolCtor, SymbolFor, ErrorCtor, RangeErrorCtor, PromiseCtor, list } = C;
  const ArrayShift = C.uncurryThis(C.ArrayPrototypeShift), SymbolToString = C.uncurryThis(C.SymbolPrototypeToString);
  const isErrorValue = (v) => ReflectApply(C.FunctionPrototypeHasInstance, ErrorCtor, [v]);

  const kCapture = SymbolCtor("kCapture");
  const kRejection = SymbolFor("nodejs.rejection");
  const errorMonitor = SymbolCtor("events.errorMonitor");
  let defaultMaxListeners = 10;
  let captureRejectionsDefault = false;

  function checkListener(listener) {
    if (typeof listener !== "function") throw invalidArgType("listener", "of type function", listener);
  }

  function inspect(value) {
    try { return require("util").inspect(value); } catch (_) { return StringCtor(value); }
  }

  function EventEmitter(opts) {
    ReflectApply(init, this, [opts]);
  }

  function init(opts) {
    if (this._events === undefined || this._events === ObjectGetPrototypeOf(this)._events) {
      this._events = ObjectCreate(null);
      this._eventsCount = 0;
    }
    this._maxListeners = this._maxListeners || undefined;
    if (opts && opts.captureRejections !== undefined) {
      if (typeof opts.captureRejections !== "boolean")
        throw invalidArgType("options.captureRejections", "of type boolean", opts.captureRejections);
      this[kCapture] = opts.captureRejections;
    } else {
      this[kCapture] = EventEmitter.prototype[kCapture];
    }
  }

  const proto = EventEmitter.prototype;
  // Built without its prototype, so the assignments below are own writes (no setter a guest put
  // on Object.prototype runs); Object.prototype goes back once it is complete.
  const ObjectPrototype = ObjectGetPrototypeOf(proto);
  ObjectSetPrototypeOf(proto, null);
  proto._events = undefined;
  proto._eventsCount = 0;
  proto._maxListeners = undefined;
  ObjectDefineProperty(proto, kCapture, { __proto__: null, value: false, writable: true, enumerable: false });

  function eventsOf(emitter) {
    let events = emitter._events;
    if (events === undefined) {
      events = emitter._events = ObjectCreate(null);
      emitter._eventsCount = 0;
    }
    return events;
  }

  function maxOf(emitter) {
    return emitter._maxListeners === undefined ? defaultMaxListeners : emitter._maxListeners;
  }

  function checkMax(n) {
    if (typeof n !== "number") throw invalidArgType("setMaxListeners", "of type number", n);
    if (n < 0 || NumberIsNaN(n))
      throw codedError(RangeErrorCtor, "ERR_OUT_OF_RANGE",
        "The value of \"setMaxListeners\" is out of range. It must be >= 0. Received " + StringCtor(n));
  }

  proto.setMaxListeners = function setMaxListeners(n) {
    checkMax(n);
    this._maxListeners = n;
    return this;
  };

  proto.getMaxListeners = function getMaxListeners() {
    return maxOf(this);
  };

  function addListenerTo(target, type, listener, prepend) {
    checkListener(listener);
    let events = eventsOf(target);
    if (events.newListener !== undefined) {
      target.emit("newListener", type, listener.listener ? listener.listener : listener);
      events = target._events;
    }
    let existing = events[type];
    if (existing === undefined) {
      events[type] = listener;
      target._eventsCount++;
      return target;
    }
    if (typeof existing === "function") existing = events[type] = prepend ? [listener, existing] : [existing, listener];
    else if (prepend) listPrepend(existing, listener);
    else defineValue(existing, existing.length, listener);
    const max = maxOf(target);
    if (max > 0 && existing.length > max && !existing.warned) {
      defineValue(existing, "warned", true);
      const what = typeof type === "symbol" ? SymbolToString(type) : StringCtor(type);
      const ctorName = (target.constructor && target.constructor.name) || "EventEmitter";
      const text = "Possible EventEmitter memory leak detected. " +
        existing.length + " " + what + " listeners added to [" + ctorName + "]. MaxListeners is " + max +
        ". Use emitter.setMaxListeners() to increase limit";
      // As Node: a warning (printed, and emitted as process 'warning') carrying the emitter, the
      // event type and the count.
      const proc = globalThis.process;
      if (proc && typeof proc.emitWarning === "function") {
        const w = new ErrorCtor(text);
        defineValue(w, "name", "MaxListenersExceededWarning");
        defineValue(w, "emitter", target);
        defineValue(w, "type", type);
        defineValue(w, "count", existing.length);
        proc.emitWarning(w);
      } else {
        globalThis.console.warn("MaxListenersExceededWarning: " + text);
      }
    }
    return target;
  }

  // named as Node names it: EventEmitter.prototype.on.name is "addListener"
  proto.addListener = function addListener(type, listener) { return addListenerTo(this, type, listener, false); };
  proto.on = proto.addListener;
  proto.prependListener = function prependListener(type, listener) { return addListenerTo(this, type, listener, true); };

  function onceWrapper(...args) {
    if (this.fired) return undefined;
    this.target.removeListener(this.type, this.wrapFn);
    this.fired = true;
    return ReflectApply(this.listener, this.target, args);
  }

  function onceWrap(target, type, listener) {
    const state = { __proto__: null, fired: false, wrapFn: undefined, target, type, listener };
    const wrapped = FunctionBind(onceWrapper, state);
    defineValue(wrapped, "listener", listener);
    state.wrapFn = wrapped;
    return wrapped;
  }

  proto.once = function once(type, listener) {
    checkListener(listener);
    return this.on(type, onceWrap(this, type, listener));
  };

  proto.prependOnceListener = function prependOnceListener(type, listener) {
    checkListener(listener);
    return this.prependListener(type, onceWrap(this, type, listener));
  };

  proto.removeListener = function removeListener(type, listener) {
    checkListener(listener);
    const events = this._events;
    if (events === undefined) return this;
    const list = events[type];
    if (list === undefined) return this;
    if (list === listener || list.listener === listener) {
      this._eventsCount--;
      if (this._eventsCount === 0) this._events = ObjectCreate(null);
      else delete events[type];
      if (events.removeListener !== undefined) this.emit("removeListener", type, list.listener || listener);
      return this;
    }
    if (typeof list === "function") return this;
    let position = -1;
    for (let i = list.length - 1; i >= 0; i--) {
      if (list[i] === listener || list[i].listener === listener) { position = i; break; }
    }
    if (position < 0) return this;
    listRemoveAt(list, position);
    if (list.length === 1) events[type] = list[0];
    if (events.removeListener !== undefined) this.emit("removeListener", type, listener);
    return this;
  };
  proto.off = proto.removeListener;

  proto.removeAllListeners = function removeAllListeners(type) {
    const events = this._events;
    if (events === undefined) return this;
    if (events.removeListener === undefined) {
      if (arguments.length === 0) {
        this._events = ObjectCreate(null);
        this._eventsCount = 0;
      } else if (events[type] !== undefined) {
        if (--this._eventsCount === 0) this._events = ObjectCreate(null);
        else delete events[type];
      }
      return this;
    }
    if (arguments.length === 0) {
      const keys = ReflectOwnKeys(events);
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i];
        if (key === "removeListener") continue;
        this.removeAllListeners(key);
      }
      this.removeAllListeners("removeListener");
      this._events = ObjectCreate(null);
      this._eventsCount = 0;
      return this;
    }
    const listeners = events[type];
    if (typeof listeners === "function") this.removeListener(type, listeners);
    else if (listeners !== undefined) {
      for (let i = listeners.length - 1; i >= 0; i--) this.removeListener(type, listeners[i]);
    }
    return this;
  };

  function listenersOf(target, type, unwrap) {
    const events = target._events;
    if (events === undefined) return [];
    const list = events[type];
    if (list === undefined) return [];
    if (typeof list === "function") return unwrap ? [list.listener || list] : [list];
    const out = [];
    for (let i = 0; i < list.length; i++) defineValue(out, i, unwrap ? list[i].listener || list[i] : list[i]);
    return out;
  }

  proto.listeners = function listeners(type) { return listenersOf(this, type, true); };
  proto.rawListeners = function rawListeners(type) { return listenersOf(this, type, false); };

  function listenerCount(type, listener) {
    const events = this._events;
    if (events === undefined) return 0;
    const list = events[type];
    if (list === undefined) return 0;
    if (typeof list === "function") {
      if (listener != null) return listener === list || listener === list.listener ? 1 : 0;
      return 1;
    }
    if (listener == null) return list.length;
    let n = 0;
    for (let i = 0; i < list.length; i++) if (list[i] === listener || list[i].listener === listener) n++;
    return n;
  }
  proto.listenerCount = listenerCount;

  proto.eventNames = function eventNames() {
    return this._eventsCount > 0 ? ReflectOwnKeys(this._events) : [];
  };

  function addCatch(target, promise, type, args) {
    try {
      const then = promise.then;
      if (typeof then === "function") {
        ReflectApply(then, promise, [undefined, (err) => {
          natives.addTimer(() => emitRejection(target, err, type, args), 0, [], false);
        }]);
      }
    } catch (err) {
      target.emit("error", err);
    }
  }

  function emitRejection(target, err, type, args) {
    if (typeof target[kRejection] === "function") {
      ReflectApply(target[kRejection], target, argsWith([err, type], args));
    } else {
      const prev = target[kCapture];
      try {
        target[kCapture] = false;
        target.emit("error", err);
      } finally {
        target[kCapture] = prev;
      }
    }
  }

  proto.emit = function emit(type, ...args) {
    const events = this._events;
    const isError = type === "error";
    if (isError && events !== undefined && events[errorMonitor] !== undefined) ReflectApply(this.emit, this, argsWith([errorMonitor], args));
    const handler = events === undefined ? undefined : events[type];
    if (handler === undefined) {
      if (!isError) return false;
      const er = args[0];
      if (isErrorValue(er)) throw er;
      const err = codedError(ErrorCtor, "ERR_UNHANDLED_ERROR", "Unhandled error. (" + inspect(er) + ")");
      defineValue(err, "context", er);
      throw err;
    }
    let list = handler;
    if (typeof handler !== "function") {
      list = P.list();
      for (let i = 0; i < handler.length; i++) list[i] = handler[i];
    } else {
      list = [handler];
    }
    for (let i = 0; i < list.length; i++) {
      const result = ReflectApply(list[i], this, args);
      if (result !== undefined && result !== null && this[kCapture] === true) addCatch(this, result, type, args);
    }
    return true;
  };

  // EventEmitter.once(emitter, name[, {signal}]) → Promise of the arguments array.
  function once(emitter, type, options) {
    const signal = options && options.signal;
    // marked like the prelude's promises: await and then on it read no Promise.prototype field
    return P.PromiseOwn(new PromiseCtor((resolve, reject) => {
      if (signal && signal.aborted) return reject(abortError(signal));
      if (typeof emitter.addEventListener === "function" && typeof emitter.on !== "function") {
        const listener = (...args) => { cleanup(); resolve(args); };
        const onAbort = () => { emitter.removeEventListener(type, listener); reject(abortError(signal)); };
        const cleanup = () => { if (signal) signal.removeEventListener("abort", onAbort); };
        emitter.addEventListener(type, listener, { once: true });
        if (signal) signal.addEventListener("abort", onAbort, { once: true });
        return undefined;
      }
      const onError = (err) => { cleanup(); reject(err); };
      const listener = (...args) => { cleanup(); resolve(args); };
      const onAbort = () => { cleanup(); reject(abortError(signal)); };
      const cleanup = () => {
        emitter.removeListener(type, listener);
        if (type !== "error") emitter.removeListener("error", onError);
        if (signal) signal.removeEventListener("abort", onAbort);
      };
      emitter.on(type, listener);
      if (type !== "error") emitter.on("error", onError);
      if (signal) signal.addEventListener("abort", onAbort, { once: true });
      return undefined;
    }));
  }

  const resolved = (v) => P.PromiseResolve(v);

  // EventEmitter.on(emitter, name[, {signal, close}]) → an async iterator of argument arrays.
  function on(emitter, type, options) {
    const signal = options && options.signal;
    if (signal && signal.aborted) throw abortError(signal);
    const closeOn = (options && options.close) || [];
    const queue = list();
    const waiting = list();
    let error = null;
    let finished = false;

    const listener = (...args) => {
      if (waiting.length) ArrayShift(waiting).resolve({ value: args, done: false });
      else queue[queue.length] = args;
    };
    const onError = (err) => {
      if (waiting.length) ArrayShift(waiting).reject(err);
      else error = err;
      finish();
    };
    const onClose = () => finish();
    const onAbort = () => onError(abortError(signal));

    function finish() {
      if (finished) return;
      finished = true;
      emitter.removeListener(type, listener);
      if (type !== "error") emitter.removeListener("error", onError);
      for (let i = 0; i < closeOn.length; i++) emitter.removeListener(closeOn[i], onClose);
      if (signal) signal.removeEventListener("abort", onAbort);
      while (waiting.length) ArrayShift(waiting).resolve({ value: undefined, done: true });
    }

    emitter.on(type, listener);
    if (type !== "error") emitter.on("error", onError);
    for (let i = 0; i < closeOn.length; i++) emitter.on(closeOn[i], onClose);
    if (signal) signal.addEventListener("abort", onAbort, { once: true });

    const iterator = {
      next() {
        if (queue.length) return resolved({ value: ArrayShift(queue), done: false });
        if (error) { const e = error; error = null; return P.PromiseReject(e); }
        if (finished) return resolved({ value: undefined, done: true });
        return P.PromiseOwn(new PromiseCtor((resolve, reject) => { waiting[waiting.length] = { __proto__: null, resolve, reject }; }));
      },
      return() {
        finish();
        return resolved({ value: undefined, done: true });
      },
      throw(err) {
        error = err;
        finish();
        return P.PromiseReject(err);
      },
      [SymbolCtor.asyncIterator]() { return this; },
    };
    return iterator;
  }

  function getEventListeners(target, type) {
    if (target && typeof target.listeners === "function") return target.listeners(type);
    if (abort.isEventTarget(target)) return abort.getEventListeners(target, type);
    throw invalidArgType("emitter", "an instance of EventEmitter or EventTarget", target);
  }

  function getMaxListeners(target) {
    if (target && typeof target.getMaxListeners === "function") return target.getMaxListeners();
    if (abort.isEventTarget(target)) {
      const m = abort.maxListenersOf(target);
      if (m !== undefined) return m;
    }
    return defaultMaxListeners;
  }

  function setMaxListeners(n, ...targets) {
    checkMax(n);
    if (targets.length === 0) defaultMaxListeners = n;
    for (let i = 0; i < targets.length; i++) {
      const t = targets[i];
      if (t && typeof t.setMaxListeners === "function") t.setMaxListeners(n);
      else if (abort.isEventTarget(t)) abort.setMaxListenersOf(t, n);
    }
  }

  function addAbortListener(signal, listener) {
    if (signal === undefined) throw invalidArgType("signal", "of type AbortSignal", signal);
    checkListener(listener);
    let removed = false;
    const handler = (...args) => { if (!removed) ReflectApply(listener, undefined, args); };
    if (signal.aborted) natives.addTimer(() => handler(), 0, [], false);
    else signal.addEventListener("abort", handler, { once: true });
    const dispose = () => { removed = true; signal.removeEventListener("abort", handler); };
    const disposable = { dispose };
    if (typeof SymbolCtor.dispose === "symbol") disposable[SymbolCtor.dispose] = dispose;
    return disposable;
  }

  const statics = {
    EventEmitter, once, on, getEventListeners, getMaxListeners, setMaxListeners, addAbortListener,
    errorMonitor, captureRejectionSymbol: kRejection, usingDomains: false, init,
    listenerCount: (emitter, type) => ReflectApply(listenerCount, emitter, [type]),
    EventTarget: abort.EventTarget, Event: abort.Event,
  };
  ObjectSetPrototypeOf(proto, ObjectPrototype);
  const staticNames = ObjectKeys(statics);
  for (let i = 0; i < staticNames.length; i++) {
    const k = staticNames[i];
    ObjectDefineProperty(EventEmitter, k, { __proto__: null, value: statics[k], enumerable: true, writable: false, configurable: false });
  }
  ObjectDefineProperty(EventEmitter, "defaultMaxListeners", {
    __proto__: null,
    enumerable: true,
    get() { return defaultMaxListeners; },
    set(n) {
      if (typeof n !== "number" || n < 0 || NumberIsNaN(n)) {
        if (typeof n !== "number") throw invalidArgType("defaultMaxListeners", "of type number", n);
        throw codedError(RangeErrorCtor, "ERR_OUT_OF_RANGE", "The value of \"defaultMaxListeners\" is out of range. It must be a non-negative number. Received " + StringCtor(n));
      }
      defaultMaxListeners = n;
    },
  });
  ObjectDefineProperty(EventEmitter, "captureRejections", {
    __proto__: null,
    enumerable: true,
    get() { return captureRejectionsDefault; },
    set(v) {
      if (typeof v !== "boolean") throw invalidArgType("EventEmitter.captureRejections", "of type boolean", v);
      captureRejectionsDefault = v;
      EventEmitter.prototype[kCapture] = v;
    },
  });

  return ObjectFreeze(EventEmitter);
})
