/* esnext/dispose.js — the built-ins of explicit resource management (ES2026): Symbol.dispose,
 * Symbol.asyncDispose, SuppressedError, DisposableStack, AsyncDisposableStack,
 * %IteratorPrototype%[@@dispose] and %AsyncIteratorPrototype%[@@asyncDispose].
 * (The `using` / `await using` declarations are syntax: the engine's parser does not know them.)
 *
 * The constructors, prototypes and symbols are made eagerly (esnext.c, 00-captures.js); this file
 * holds what runs when they are called. A stack's state (disposed or not, its list of resources)
 * lives in a private slot; disposal runs the spec's DisposeResources: last in, first out, each
 * error wrapped with the previous one in a SuppressedError.
 *
 * Trusts: lib (esnext/01-lib.js) and the intrinsics 00-captures.js captured.
 */
(function (lib) {
  "use strict";
  const { call, isObject, isCallable, getMethod, createDataProperty, register } = lib;
  const { TypeErrorCtor, ReferenceErrorCtor, ErrorCtor, ReflectConstruct, ObjectDefineProperty, ObjectSetPrototypeOf,
    ObjectCreate, PromiseCtor, PromiseReject, PromiseResolve, SymbolDispose, SymbolAsyncDispose, SuppressedError,
    DSP, ADSP } = lib.P;

  const nonEnumerable = (o, key, value) =>
    ObjectDefineProperty(o, key, { __proto__: null, value, writable: true, enumerable: false, configurable: true });

  /* ---- SuppressedError ---- */
  // OrdinaryCreateFromConstructor(newTarget, "%SuppressedError.prototype%"): the prototype is read
  // from newTarget once; one that is not an object falls back to ours. (`this` is newTarget, or
  // undefined for a call without `new`.)
  register("SuppressedError", {
    construct(error, suppressed, message) {
      const O = ReflectConstruct(ErrorCtor, [], SuppressedError);
      const nt = this;
      if (nt !== undefined && nt !== SuppressedError) {
        const proto = nt.prototype;
        if (isObject(proto)) ObjectSetPrototypeOf(O, proto);
      }
      if (message !== undefined) nonEnumerable(O, "message", `${message}`);
      nonEnumerable(O, "error", error);
      nonEnumerable(O, "suppressed", suppressed);
      return O;
    },
  });
  function suppressedError(error, suppressed) {
    const O = ReflectConstruct(ErrorCtor, [], SuppressedError);
    nonEnumerable(O, "error", error);
    nonEnumerable(O, "suppressed", suppressed);
    return O;
  }
  /* ---- the dispose capability: a list of {value, async, method} ---- */
  // CreateDisposableResource + AddDisposableResource for a value (use/ await using).
  function addValue(list, V, async) {
    if (V === undefined || V === null) {
      if (!async) return;
      createDataProperty(list, list.length, { value: undefined, async, method: undefined });
      return;
    }
    if (!isObject(V)) throw new TypeErrorCtor("only objects (or null/undefined) can be disposed");
    let method;
    if (async) {
      method = getMethod(V, SymbolAsyncDispose);
      if (method === undefined) {
        const syncMethod = getMethod(V, SymbolDispose);
        if (syncMethod !== undefined) {
          // the sync method, run as an async one (its result is not awaited)
          method = function () {
            return new PromiseCtor((resolve) => {
              call(syncMethod, this);
              resolve(undefined);
            });
          };
        }
      }
    } else {
      method = getMethod(V, SymbolDispose);
    }
    if (method === undefined) throw new TypeErrorCtor("the value has no " + (async ? "Symbol.asyncDispose or " : "") + "Symbol.dispose method");
    createDataProperty(list, list.length, { value: V, async, method });
  }
  function addMethod(list, fn, async) {
    createDataProperty(list, list.length, { value: undefined, async, method: fn });
  }

  // DisposeResources (sync): returns normally or throws the combined error.
  function disposeSync(list) {
    let thrown = false;
    let error;
    for (let i = list.length - 1; i >= 0; i--) {
      const r = list[i];
      try {
        call(r.method, r.value);
      } catch (e) {
        error = thrown ? suppressedError(e, error) : e;
        thrown = true;
      }
    }
    if (thrown) throw error;
  }
  // DisposeResources (async)
  async function disposeAsync(list) {
    let thrown = false;
    let error;
    let needsAwait = false;
    let hasAwaited = false;
    for (let i = list.length - 1; i >= 0; i--) {
      const r = list[i];
      if (!r.async && needsAwait && !hasAwaited) {
        await undefined;
        needsAwait = false;
      }
      if (r.method !== undefined) {
        try {
          const result = call(r.method, r.value);
          if (r.async) {
            hasAwaited = true;
            await result;
          }
        } catch (e) {
          error = thrown ? suppressedError(e, error) : e;
          thrown = true;
        }
      } else {
        needsAwait = true;
      }
    }
    if (needsAwait && !hasAwaited) await undefined;
    if (thrown) throw error;
  }

  /* ---- DisposableStack, AsyncDisposableStack ---- */
  const SyncSlot = lib.makeSlot("not a DisposableStack");
  const AsyncSlot = lib.makeSlot("not an AsyncDisposableStack");
  // OrdinaryCreateFromConstructor: `this` is newTarget (the C constructor refuses a call without new)
  function fromNewTarget(nt, fallback) {
    const proto = nt.prototype;
    return ObjectCreate(isObject(proto) ? proto : fallback);
  }
  function liveState(slot, o) {
    const s = slot.get(o);
    if (s.disposed) throw new ReferenceErrorCtor("the stack is already disposed");
    return s;
  }
  register("DisposableStack", {
    construct() {
      const o = fromNewTarget(this, DSP);
      new SyncSlot(o, { disposed: false, list: [] });
      return o;
    },
  });
  register("DisposableStack.prototype", {
    adopt(value, onDispose) {
      const s = liveState(SyncSlot, this);
      if (!isCallable(onDispose)) throw new TypeErrorCtor("adopt: onDispose is not a function");
      addMethod(s.list, () => onDispose(value), false);
      return value;
    },
    defer(onDispose) {
      const s = liveState(SyncSlot, this);
      if (!isCallable(onDispose)) throw new TypeErrorCtor("defer: onDispose is not a function");
      addMethod(s.list, onDispose, false);
      return undefined;
    },
    dispose() {
      const s = SyncSlot.get(this);
      if (s.disposed) return undefined;
      s.disposed = true;
      const list = s.list;
      s.list = [];
      disposeSync(list);
      return undefined;
    },
    get disposed() {
      return SyncSlot.get(this).disposed;
    },
    move() {
      const s = liveState(SyncSlot, this);
      const n = ObjectCreate(DSP);
      new SyncSlot(n, { disposed: false, list: s.list });
      s.list = [];
      s.disposed = true;
      return n;
    },
    use(value) {
      const s = liveState(SyncSlot, this);
      addValue(s.list, value, false);
      return value;
    },
  });

  register("AsyncDisposableStack", {
    construct() {
      const o = fromNewTarget(this, ADSP);
      new AsyncSlot(o, { disposed: false, list: [] });
      return o;
    },
  });
  register("AsyncDisposableStack.prototype", {
    adopt(value, onDisposeAsync) {
      const s = liveState(AsyncSlot, this);
      if (!isCallable(onDisposeAsync)) throw new TypeErrorCtor("adopt: onDisposeAsync is not a function");
      addMethod(s.list, () => onDisposeAsync(value), true);
      return value;
    },
    defer(onDisposeAsync) {
      const s = liveState(AsyncSlot, this);
      if (!isCallable(onDisposeAsync)) throw new TypeErrorCtor("defer: onDisposeAsync is not a function");
      addMethod(s.list, onDisposeAsync, true);
      return undefined;
    },
    // The promise is DisposeResources' own (no extra wrapping: the spec's job order is observable).
    disposeAsync() {
      let s;
      try {
        s = AsyncSlot.get(this);
      } catch (e) {
        return PromiseReject(e);
      }
      if (s.disposed) return PromiseResolve(undefined);
      s.disposed = true;
      const list = s.list;
      s.list = [];
      return disposeAsync(list);
    },
    get disposed() {
      return AsyncSlot.get(this).disposed;
    },
    move() {
      const s = liveState(AsyncSlot, this);
      const n = ObjectCreate(ADSP);
      new AsyncSlot(n, { disposed: false, list: s.list });
      s.list = [];
      s.disposed = true;
      return n;
    },
    use(value) {
      const s = liveState(AsyncSlot, this);
      addValue(s.list, value, true);
      return value;
    },
  });

  /* ---- the iterator prototypes ---- */
  async function asyncIteratorDispose(O) {
    const m = getMethod(O, "return");
    if (m !== undefined) await call(m, O);
    return undefined;
  }
  register("Iterator.prototype", {
    "@@dispose"() {
      const m = getMethod(this, "return");
      if (m !== undefined) call(m, this);
      return undefined;
    },
  });
  register("AsyncIteratorPrototype", {
    "@@asyncDispose"() {
      return asyncIteratorDispose(this);
    },
  });
})
