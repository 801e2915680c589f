/* esnext/fromasync.js — Array.fromAsync (ES2026).
 *
 * The spec's async closure is one of our own async functions; Array.fromAsync itself is a plain
 * function returning its promise (so it is no AsyncFunction and throws nothing synchronously).
 * A sync iterable is read through our own rendering of CreateAsyncFromSyncIterator (each value
 * awaited; a rejected value closes the sync iterator). `await` is the spec's Await: the only
 * lookups on guest values are the ones Await and the iteration protocol make.
 *
 * Trusts: lib (esnext/01-lib.js) and the intrinsics 00-captures.js captured.
 */
(function (lib) {
  "use strict";
  const { call, isObject, isCallable, getMethod, getIteratorFromMethod, closeThrow, toIntegerOrInfinity,
    createDataProperty, isConstructor, register } = lib;
  const { TypeErrorCtor, ObjectCtor, ArrayCtor, SymbolIterator, SymbolAsyncIterator, ReflectSet, PromiseReject } = lib.P;
  const MAX = 9007199254740991;

  // Set(A, "length", len, true)
  function setLengthStrict(A, len) {
    if (!ReflectSet(A, "length", len)) throw new TypeErrorCtor("cannot set the length of the result");
  }

  // CreateAsyncFromSyncIterator, as a record with async next() and return().
  function asyncFromSync(rec) {
    const it = rec.it;
    async function continuation(result, closeOnRejection) {
      const done = !!result.done;
      const value = result.value;
      let v;
      try {
        v = await value;
      } catch (e) {
        if (!done && closeOnRejection) closeThrow(it, e);
        throw e;
      }
      return { value: v, done };
    }
    return {
      it,
      next() {
        let r;
        try {
          r = call(rec.next, it);
          if (!isObject(r)) throw new TypeErrorCtor("the iterator's next() returned a non-object");
        } catch (e) {
          return PromiseReject(e);
        }
        return continuation(r, true);
      },
      async return() {
        const m = getMethod(it, "return");
        if (m === undefined) return { value: undefined, done: true };
        const r = call(m, it);
        if (!isObject(r)) throw new TypeErrorCtor("the iterator's return() returned a non-object");
        return continuation(r, false);
      },
    };
  }

  // AsyncIteratorClose with a throw completion: return() is called and awaited, its outcome
  // ignored, and err thrown.
  async function asyncCloseThrow(rec, err) {
    try {
      if (rec.sync) {
        await rec.sync.return();
      } else {
        const m = rec.it.return;
        if (m !== undefined && m !== null) await call(m, rec.it);
      }
    } catch (_) {
      /* the original error wins */
    }
    throw err;
  }

  async function fromAsyncImpl(C, asyncItems, mapfn, thisArg) {
    let mapping = false;
    if (mapfn !== undefined) {
      if (!isCallable(mapfn)) throw new TypeErrorCtor("Array.fromAsync: the mapping function is not callable");
      mapping = true;
    }
    if (asyncItems === undefined || asyncItems === null) throw new TypeErrorCtor("Array.fromAsync needs an iterable or array-like");
    const usingAsync = getMethod(asyncItems, SymbolAsyncIterator);
    const usingSync = usingAsync === undefined ? getMethod(asyncItems, SymbolIterator) : undefined;
    if (usingAsync !== undefined || usingSync !== undefined) {
      let rec;
      if (usingAsync !== undefined) {
        rec = getIteratorFromMethod(asyncItems, usingAsync);
      } else {
        const s = asyncFromSync(getIteratorFromMethod(asyncItems, usingSync));
        rec = { it: s, next: s.next, sync: s };
      }
      const A = isConstructor(C) ? new C() : [];
      for (let k = 0; ; k++) {
        if (k >= MAX) return asyncCloseThrow(rec, new TypeErrorCtor("too many values"));
        let r = call(rec.next, rec.it);
        r = await r;
        if (!isObject(r)) throw new TypeErrorCtor("the iterator's next() result is not an object");
        if (r.done) {
          setLengthStrict(A, k);
          return A;
        }
        const v = r.value;
        let mapped = v;
        if (mapping) {
          try {
            mapped = call(mapfn, thisArg, v, k);
            mapped = await mapped;
          } catch (e) {
            return asyncCloseThrow(rec, e);
          }
        }
        try {
          createDataProperty(A, k, mapped);
        } catch (e) {
          return asyncCloseThrow(rec, e);
        }
      }
    }
    const arrayLike = ObjectCtor(asyncItems);
    const len = toLength(arrayLike.length);
    const A = isConstructor(C) ? new C(len) : new ArrayCtor(len);
    for (let k = 0; k < len; k++) {
      let v = await arrayLike[k];
      if (mapping) v = await call(mapfn, thisArg, v, k);
      createDataProperty(A, k, v);
    }
    setLengthStrict(A, len);
    return A;
  }
  function toLength(v) {
    const n = toIntegerOrInfinity(v);
    return n <= 0 ? 0 : n > MAX ? MAX : n;
  }

  register("Array", {
    fromAsync(asyncItems, mapfn = undefined, thisArg = undefined) {
      return fromAsyncImpl(this, asyncItems, mapfn, thisArg);
    },
  });
})
