/* esnext/set.js — the Set methods (ES2025): Set.prototype.{union, intersection, difference,
 * symmetricDifference, isSubsetOf, isSupersetOf, isDisjointFrom}.
 *
 * `this` is read through the Set intrinsics captured here (never through its own, guest-writable
 * `values`/`has`/`add`); the argument is read as the spec's GetSetRecord does: `size`, then `has`
 * and `keys`, each once, called as the algorithm says. Results are new %Set% objects.
 *
 * Trusts: lib (esnext/01-lib.js) and the intrinsics 00-captures.js captured.
 */
(function (lib) {
  "use strict";
  const { call, isObject, isCallable, DONE, stepValue, closeNormal, getIteratorFromMethod, toIntegerOrInfinity,
    createDataProperty, register } = lib;
  const { TypeErrorCtor, RangeErrorCtor, NumberIsNaN, SetCtor, SetHas, SetAdd, SetDelete, SetValues, SetSize,
    SetIterNext } = lib.P;

  // RequireInternalSlot(O, [[SetData]]): the size getter is the brand check.
  const sizeOf = (o) => call(SetSize, o);

  // A live iterator over O's [[SetData]] (sees additions made meanwhile, skips deletions: the
  // spec's index walk that re-reads the size).
  function live(o) {
    return call(SetValues, o);
  }
  function nextOf(iter) {
    const r = call(SetIterNext, iter);
    return r.done ? DONE : r.value;
  }
  function copyOf(o) {
    const out = new SetCtor();
    const iter = live(o);
    for (let v = nextOf(iter); v !== DONE; v = nextOf(iter)) call(SetAdd, out, v);
    return out;
  }
  function listOf(s) {
    const list = [];
    const iter = live(s);
    let n = 0;
    for (let v = nextOf(iter); v !== DONE; v = nextOf(iter)) createDataProperty(list, n++, v);
    return list;
  }

  // GetSetRecord
  function setRecord(obj) {
    if (!isObject(obj)) throw new TypeErrorCtor("the argument is not an object (a set-like one is needed)");
    const rawSize = obj.size;
    const numSize = +rawSize;
    if (NumberIsNaN(numSize)) throw new TypeErrorCtor("the argument's size is not a number");
    const size = toIntegerOrInfinity(numSize);
    if (size < 0) throw new RangeErrorCtor("the argument's size is negative");
    const has = obj.has;
    if (!isCallable(has)) throw new TypeErrorCtor("the argument's has is not a function");
    const keys = obj.keys;
    if (!isCallable(keys)) throw new TypeErrorCtor("the argument's keys is not a function");
    return { obj, size, has, keys };
  }
  const otherHas = (rec, v) => !!call(rec.has, rec.obj, v);
  const canonical = (v) => (v === 0 ? 0 : v);

  register("Set.prototype", {
    union(other) {
      sizeOf(this);
      const rec = setRecord(other);
      const keys = getIteratorFromMethod(rec.obj, rec.keys);
      const result = copyOf(this);
      for (let v = stepValue(keys); v !== DONE; v = stepValue(keys)) call(SetAdd, result, canonical(v));
      return result;
    },
    intersection(other) {
      const size = sizeOf(this);
      const rec = setRecord(other);
      const result = new SetCtor();
      if (size <= rec.size) {
        const iter = live(this);
        for (let e = nextOf(iter); e !== DONE; e = nextOf(iter)) {
          if (otherHas(rec, e)) call(SetAdd, result, e);
        }
      } else {
        const keys = getIteratorFromMethod(rec.obj, rec.keys);
        for (let v = stepValue(keys); v !== DONE; v = stepValue(keys)) {
          v = canonical(v);
          if (call(SetHas, this, v)) call(SetAdd, result, v);
        }
      }
      return result;
    },
    difference(other) {
      const size = sizeOf(this);
      const rec = setRecord(other);
      const result = copyOf(this);
      if (size <= rec.size) {
        const list = listOf(result);
        for (let i = 0; i < list.length; i++) {
          if (otherHas(rec, list[i])) call(SetDelete, result, list[i]);
        }
      } else {
        const keys = getIteratorFromMethod(rec.obj, rec.keys);
        for (let v = stepValue(keys); v !== DONE; v = stepValue(keys)) call(SetDelete, result, canonical(v));
      }
      return result;
    },
    symmetricDifference(other) {
      sizeOf(this);
      const rec = setRecord(other);
      const keys = getIteratorFromMethod(rec.obj, rec.keys);
      const result = copyOf(this);
      for (let v = stepValue(keys); v !== DONE; v = stepValue(keys)) {
        v = canonical(v);
        const already = call(SetHas, result, v);
        if (call(SetHas, this, v)) {
          if (already) call(SetDelete, result, v);
        } else if (!already) {
          call(SetAdd, result, v);
        }
      }
      return result;
    },
    isSubsetOf(other) {
      const size = sizeOf(this);
      const rec = setRecord(other);
      if (size > rec.size) return false;
      const iter = live(this);
      for (let e = nextOf(iter); e !== DONE; e = nextOf(iter)) {
        if (!otherHas(rec, e)) return false;
      }
      return true;
    },
    isSupersetOf(other) {
      const size = sizeOf(this);
      const rec = setRecord(other);
      if (size < rec.size) return false;
      const keys = getIteratorFromMethod(rec.obj, rec.keys);
      for (let v = stepValue(keys); v !== DONE; v = stepValue(keys)) {
        if (!call(SetHas, this, v)) {
          closeNormal(keys.it);
          return false;
        }
      }
      return true;
    },
    isDisjointFrom(other) {
      const size = sizeOf(this);
      const rec = setRecord(other);
      if (size <= rec.size) {
        const iter = live(this);
        for (let e = nextOf(iter); e !== DONE; e = nextOf(iter)) {
          if (otherHas(rec, e)) return false;
        }
      } else {
        const keys = getIteratorFromMethod(rec.obj, rec.keys);
        for (let v = stepValue(keys); v !== DONE; v = stepValue(keys)) {
          if (call(SetHas, this, v)) {
            closeNormal(keys.it);
            return false;
          }
        }
      }
      return true;
    },
  });
})
