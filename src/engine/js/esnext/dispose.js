/* esnext/dispose.js — the built-ins of explicit resource management (ES2026): Symbol.dispose,
 * Symbol.asyncDispose, SuppressedError, DisposableStack, AsyncDisposableStack,
 * %IteratorPrototype%[@@dispose] and %AsyncIteratorPrototype%[@@asyncDispose].
 * (The `using` / `await using` declarations are syntax: the engine's parser does not know them.)
 *
 * A stack's state (disposed or not, its list of resources) lives in a private slot; disposal runs
 * the spec's DisposeResources: last in, first out, each error wrapped with the previous one in a
 * SuppressedError.
 *
 * Trusts: lib (esnext/00-lib.js) and the intrinsics as they are at install time.
 */
(function (lib) {
  "use strict";
  const { call, isObject, isCallable, getMethod, createDataProperty, defineMethods, defineValue, defineGlobal } = lib;
  const TypeErrorCtor = TypeError;
  const ReferenceErrorCtor = ReferenceError;
  const ErrorCtor = Error;
  const ReflectConstruct = Reflect.construct;
  const ObjectDefineProperty = Object.defineProperty;
  const ObjectSetPrototypeOf = Object.setPrototypeOf;
  const SymbolCtor = Symbol;
  const ObjectCreate = Object.create;

  /* ---- the well-known symbols ---- */
  const SymbolDispose = SymbolCtor("Symbol.dispose");
  const SymbolAsyncDispose = SymbolCtor("Symbol.asyncDispose");
  defineValue(SymbolCtor, "dispose", SymbolDispose, false, false, false);
  defineValue(SymbolCtor, "asyncDispose", SymbolAsyncDispose, false, false, false);

  const nonEnumerable = (o, key, value) =>
    ObjectDefineProperty(o, key, { __proto__: null, value, writable: true, enumerable: false, configurable: true });

  /* ---- SuppressedError ---- */
  // OrdinaryCreateFromConstructor(newTarget, "%SuppressedError.prototype%"): the prototype is
  // read from newTarget once; one that is not an object falls back to ours.
  function SuppressedError(error, suppressed, message) {
    const O = ReflectConstruct(ErrorCtor, [], SuppressedError);
    if (new.target !== undefined && new.target !== SuppressedError) {
      const proto = new.target.prototype;
      if (isObject(proto)) ObjectSetPrototypeOf(O, proto);
    }
    if (message !== undefined) nonEnumerable(O, "message", `${message}`);
    nonEnumerable(O, "error", error);
    nonEnumerable(O, "suppressed", suppressed);
    return O;
  }
  ObjectSetPrototypeOf(SuppressedError, ErrorCtor);
  const SuppressedErrorPrototype = { __proto__: ErrorCtor.prototype };
  defineValue(SuppressedError, "prototype", SuppressedErrorPrototype, false, false, false);
  defineValue(SuppressedErrorPrototype, "constructor", SuppressedError, true, false, true);
  defineValue(SuppressedErrorPrototype, "name", "SuppressedError", true, false, true);
  defineValue(SuppressedErrorPrototype, "message", "", true, false, true);
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
  const PromiseCtor = Promise;

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

  /* ---- DisposableStack ---- */
  const SyncSlot = lib.makeSlot("not a DisposableStack");
  const AsyncSlot = lib.makeSlot("not an AsyncDisposableStack");

  // A derived class whose constructor never calls super(): calling it without `new` is a
  // TypeError, and no object is made from newTarget before ours (its prototype is read once).
  // Its links to the base are cut after definition.
  const FunctionPrototype = Function.prototype;
  const ObjectPrototype = Object.prototype;
  function fromNewTarget(nt, fallback) {
    const proto = nt.prototype;
    return ObjectCreate(isObject(proto) ? proto : fallback);
  }
  const DisposableStack = class DisposableStack extends Object {
    constructor() {
      const o = fromNewTarget(new.target, DSP);
      new SyncSlot(o, { disposed: false, list: [] });
      return o;
    }
  };
  ObjectSetPrototypeOf(DisposableStack, FunctionPrototype);
  const DSP = DisposableStack.prototype;
  ObjectSetPrototypeOf(DSP, ObjectPrototype);
  function liveState(slot, o) {
    const s = slot.get(o);
    if (s.disposed) throw new ReferenceErrorCtor("the stack is already disposed");
    return s;
  }
  defineMethods(DSP, {
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
  defineValue(DSP, SymbolDispose, DSP.dispose, true, false, true);
  defineValue(DSP, Symbol.toStringTag, "DisposableStack", false, false, true);

  /* ---- AsyncDisposableStack ---- */
  const AsyncDisposableStack = class AsyncDisposableStack extends Object {
    constructor() {
      const o = fromNewTarget(new.target, ADSP);
      new AsyncSlot(o, { disposed: false, list: [] });
      return o;
    }
  };
  ObjectSetPrototypeOf(AsyncDisposableStack, FunctionPrototype);
  const ADSP = AsyncDisposableStack.prototype;
  ObjectSetPrototypeOf(ADSP, ObjectPrototype);
  const PromiseRejectIntrinsic = Promise.reject.bind(Promise);
  const PromiseResolveIntrinsic = Promise.resolve.bind(Promise);
  // The promise of disposeAsync is DisposeResources' own (no extra wrapping: the spec's job
  // order is observable).
  function disposeAsyncStack(o) {
    let s;
    try {
      s = AsyncSlot.get(o);
    } catch (e) {
      return PromiseRejectIntrinsic(e);
    }
    if (s.disposed) return PromiseResolveIntrinsic(undefined);
    s.disposed = true;
    const list = s.list;
    s.list = [];
    return disposeAsync(list);
  }
  defineMethods(ADSP, {
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
    disposeAsync() {
      return disposeAsyncStack(this);
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
  defineValue(ADSP, SymbolAsyncDispose, ADSP.disposeAsync, true, false, true);
  defineValue(ADSP, Symbol.toStringTag, "AsyncDisposableStack", false, false, true);

  /* ---- the iterator prototypes ---- */
  async function asyncIteratorDispose(O) {
    const m = getMethod(O, "return");
    if (m !== undefined) await call(m, O);
    return undefined;
  }
  defineMethods(lib.IteratorPrototype, {
    [SymbolDispose]() {
      const m = getMethod(this, "return");
      if (m !== undefined) call(m, this);
      return undefined;
    },
  });
  defineMethods(lib.AsyncIteratorPrototype, {
    [SymbolAsyncDispose]() {
      return asyncIteratorDispose(this);
    },
  });

  defineGlobal("SuppressedError", SuppressedError);
  defineGlobal("DisposableStack", DisposableStack);
  defineGlobal("AsyncDisposableStack", AsyncDisposableStack);
})
