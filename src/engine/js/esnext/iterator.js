/* esnext/iterator.js — iterator helpers (ES2025): the global `Iterator`, Iterator.from,
 * Iterator.concat (iterator sequencing, ES2026),
 * Iterator.prototype.{map, filter, take, drop, flatMap, reduce, toArray, forEach, some, every,
 * find}, its `constructor` and @@toStringTag accessors, %WrapForValidIteratorPrototype% and
 * %IteratorHelperPrototype%.
 *
 * An iterator helper runs its spec closure as one of our own generators (never reachable by guest
 * code), so it has the generator states the spec gives it: a re-entrant next() is a TypeError, a
 * finished helper answers {done: true}, and return() at a yield closes the underlying iterator.
 * The helper object itself is a plain object of %IteratorHelperPrototype% carrying that state in a
 * private slot (the brand check).
 *
 * Trusts: lib (esnext/01-lib.js) and the intrinsics 00-captures.js captured.
 */
(function (lib) {
  "use strict";
  const { call, isObject, isCallable, DONE, stepValue, step, closeThrow, closeNormal, getIteratorDirect,
    getMethod, toIntegerOrInfinity, createDataProperty, defineMethods, defineValue, register } = lib;
  const { TypeErrorCtor, RangeErrorCtor, ObjectCreate, ObjectIsPrototypeOf, ObjectGetOwnPropertyDescriptor, NumberIsNaN,
    SymbolIterator, SymbolToStringTag, IteratorPrototype, GenNext, GenReturn, Iterator } = lib.P;

  const HelperSlot = lib.makeSlot("not an Iterator Helper object");
  const WrapSlot = lib.makeSlot("not a wrapped iterator (made by Iterator.from)");

  // %Iterator% (the C stub is the constructor guests see; `this` is newTarget): abstract, only a
  // subclass can be constructed.
  register("Iterator", {
    construct() {
      const nt = this;
      if (nt === undefined || nt === Iterator) {
        throw new TypeErrorCtor("Iterator is an abstract class: construct a subclass of it");
      }
      const proto = nt.prototype;
      return ObjectCreate(isObject(proto) ? proto : IteratorPrototype);
    },
  });

  // SetterThatIgnoresPrototypeProperties(this, home, p, v)
  function setIgnoringHome(self, home, p, v) {
    if (!isObject(self)) throw new TypeErrorCtor("cannot set " + (typeof p === "symbol" ? "Symbol.toStringTag" : p) + " on a primitive");
    if (self === home) throw new TypeErrorCtor("cannot set this property of Iterator.prototype by assignment");
    if (ObjectGetOwnPropertyDescriptor(self, p) === undefined) createDataProperty(self, p, v);
    else self[p] = v;
  }

  // The helper's state: the generator running its closure, the underlying iterator, whether the
  // generator has started (return() on a fresh helper closes the underlying iterator itself).
  function makeHelper(gen, underlying) {
    const h = ObjectCreate(IteratorHelperPrototype);
    new HelperSlot(h, { gen, underlying, started: false });
    return h;
  }

  // The arguments of a helper are checked before its iterator's `next` is read; a bad argument
  // closes the iterator (the spec's IfAbruptCloseIterator on argument validation).
  function thisIterator(o) {
    if (!isObject(o)) throw new TypeErrorCtor("Iterator.prototype method called on a non-object");
    return o;
  }
  function requireCallable(o, f) {
    if (!isCallable(f)) closeThrow(o, new TypeErrorCtor("the callback is not a function"));
  }
  function limitOf(o, limit) {
    let n;
    try {
      n = +limit;
    } catch (e) {
      closeThrow(o, e);
    }
    if (NumberIsNaN(n)) closeThrow(o, new RangeErrorCtor("the limit is not a number"));
    if (n !== Infinity && n > 9007199254740991) closeThrow(o, new RangeErrorCtor("the limit is above 2**53 - 1"));
    const i = toIntegerOrInfinity(n);
    if (i < 0) closeThrow(o, new RangeErrorCtor("the limit is negative"));
    return i;
  }

  // Yields v; a return() at this point closes the underlying iterator and finishes.
  // (Used as `yield* yieldOrClose(...)` would add a layer; instead each body inlines the pattern.)

  function* mapBody(rec, mapper) {
    let counter = 0;
    for (;;) {
      const v = stepValue(rec);
      if (v === DONE) return undefined;
      let mapped;
      try {
        mapped = mapper(v, counter);
      } catch (e) {
        closeThrow(rec.it, e);
      }
      let resumed = false;
      try {
        yield mapped;
        resumed = true;
      } finally {
        if (!resumed) closeNormal(rec.it);
      }
      counter++;
    }
  }

  function* filterBody(rec, predicate) {
    let counter = 0;
    for (;;) {
      const v = stepValue(rec);
      if (v === DONE) return undefined;
      let selected;
      try {
        selected = predicate(v, counter);
      } catch (e) {
        closeThrow(rec.it, e);
      }
      if (selected) {
        let resumed = false;
        try {
          yield v;
          resumed = true;
        } finally {
          if (!resumed) closeNormal(rec.it);
        }
      }
      counter++;
    }
  }

  function* takeBody(rec, limit) {
    let remaining = limit;
    for (;;) {
      if (remaining === 0) {
        closeNormal(rec.it);
        return undefined;
      }
      if (remaining !== Infinity) remaining--;
      const v = stepValue(rec);
      if (v === DONE) return undefined;
      let resumed = false;
      try {
        yield v;
        resumed = true;
      } finally {
        if (!resumed) closeNormal(rec.it);
      }
    }
  }

  function* dropBody(rec, limit) {
    let remaining = limit;
    while (remaining > 0) {
      if (remaining !== Infinity) remaining--;
      if (step(rec) === DONE) return undefined;
    }
    for (;;) {
      const v = stepValue(rec);
      if (v === DONE) return undefined;
      let resumed = false;
      try {
        yield v;
        resumed = true;
      } finally {
        if (!resumed) closeNormal(rec.it);
      }
    }
  }

  // GetIteratorFlattenable(obj, primitiveHandling)
  function getIteratorFlattenable(obj, allowStrings) {
    if (!isObject(obj)) {
      if (!allowStrings || typeof obj !== "string") throw new TypeErrorCtor("not an iterator or iterable object");
    }
    const method = getMethod(obj, SymbolIterator);
    const it = method === undefined ? obj : call(method, obj);
    if (!isObject(it)) throw new TypeErrorCtor("the iterator method returned a non-object");
    return getIteratorDirect(it);
  }

  function* flatMapBody(rec, mapper) {
    let counter = 0;
    for (;;) {
      const v = stepValue(rec);
      if (v === DONE) return undefined;
      let inner;
      try {
        inner = getIteratorFlattenable(mapper(v, counter), false);
      } catch (e) {
        closeThrow(rec.it, e);
      }
      for (;;) {
        let iv;
        try {
          iv = stepValue(inner);
        } catch (e) {
          closeThrow(rec.it, e);
        }
        if (iv === DONE) break;
        let resumed = false;
        try {
          yield iv;
          resumed = true;
        } finally {
          if (!resumed) {
            try {
              closeNormal(inner.it);
            } catch (e) {
              closeThrow(rec.it, e);
            }
            closeNormal(rec.it);
          }
        }
      }
      counter++;
    }
  }

  const IteratorHelperPrototype = ObjectCreate(IteratorPrototype);
  defineMethods(IteratorHelperPrototype, {
    next() {
      const s = HelperSlot.get(this);
      s.started = true;
      return call(GenNext, s.gen);
    },
    return() {
      const s = HelperSlot.get(this);
      if (!s.started) {
        s.started = true;
        call(GenReturn, s.gen); // suspended-start → completed, running none of the closure
        if (s.underlying !== null) closeNormal(s.underlying);
        return { value: undefined, done: true };
      }
      return call(GenReturn, s.gen, undefined);
    },
  });
  defineValue(IteratorHelperPrototype, SymbolToStringTag, "Iterator Helper", false, false, true);

  const WrapForValidIteratorPrototype = ObjectCreate(IteratorPrototype);
  defineMethods(WrapForValidIteratorPrototype, {
    next() {
      const rec = WrapSlot.get(this);
      return call(rec.next, rec.it);
    },
    return() {
      const it = WrapSlot.get(this).it;
      const m = getMethod(it, "return");
      if (m === undefined) return { value: undefined, done: true };
      return call(m, it);
    },
  });

  // Iterator.concat's closure: each iterable opened in turn, its values passed through.
  function* concatBody(iterables) {
    for (let i = 0; i < iterables.length; i++) {
      const it = call(iterables[i].open, iterables[i].iterable);
      if (!isObject(it)) throw new TypeErrorCtor("the iterator method returned a non-object");
      const rec = getIteratorDirect(it);
      for (;;) {
        const v = stepValue(rec);
        if (v === DONE) break;
        let resumed = false;
        try {
          yield v;
          resumed = true;
        } finally {
          if (!resumed) closeNormal(it);
        }
      }
    }
    return undefined;
  }

  register("Iterator", {
    concat(...items) {
      const iterables = [];
      for (let i = 0; i < items.length; i++) {
        const item = items[i];
        if (!isObject(item)) throw new TypeErrorCtor("Iterator.concat: an argument is not an object");
        const open = getMethod(item, SymbolIterator);
        if (open === undefined) throw new TypeErrorCtor("Iterator.concat: an argument is not iterable");
        createDataProperty(iterables, i, { open, iterable: item });
      }
      return makeHelper(concatBody(iterables), null);
    },
    from(O) {
      const rec = getIteratorFlattenable(O, true);
      if (call(ObjectIsPrototypeOf, IteratorPrototype, rec.it)) return rec.it;
      const w = ObjectCreate(WrapForValidIteratorPrototype);
      new WrapSlot(w, rec);
      return w;
    },
  });

  register("Iterator.prototype", {
    map(mapper) {
      const o = thisIterator(this);
      requireCallable(o, mapper);
      const rec = getIteratorDirect(o);
      return makeHelper(mapBody(rec, mapper), o);
    },
    filter(predicate) {
      const o = thisIterator(this);
      requireCallable(o, predicate);
      const rec = getIteratorDirect(o);
      return makeHelper(filterBody(rec, predicate), o);
    },
    take(limit) {
      const o = thisIterator(this);
      const n = limitOf(o, limit);
      const rec = getIteratorDirect(o);
      return makeHelper(takeBody(rec, n), o);
    },
    drop(limit) {
      const o = thisIterator(this);
      const n = limitOf(o, limit);
      const rec = getIteratorDirect(o);
      return makeHelper(dropBody(rec, n), o);
    },
    flatMap(mapper) {
      const o = thisIterator(this);
      requireCallable(o, mapper);
      const rec = getIteratorDirect(o);
      return makeHelper(flatMapBody(rec, mapper), o);
    },
    reduce(reducer, ...rest) {
      const o = thisIterator(this);
      requireCallable(o, reducer);
      const rec = getIteratorDirect(o);
      let acc, counter;
      if (rest.length === 0) {
        acc = stepValue(rec);
        if (acc === DONE) throw new TypeErrorCtor("reduce of an empty iterator with no initial value");
        counter = 1;
      } else {
        acc = rest[0];
        counter = 0;
      }
      for (;;) {
        const v = stepValue(rec);
        if (v === DONE) return acc;
        try {
          acc = reducer(acc, v, counter);
        } catch (e) {
          closeThrow(o, e);
        }
        counter++;
      }
    },
    toArray() {
      const o = thisIterator(this);
      const rec = getIteratorDirect(o);
      const items = [];
      for (let n = 0; ; n++) {
        const v = stepValue(rec);
        if (v === DONE) return items;
        createDataProperty(items, n, v);
      }
    },
    forEach(fn) {
      const o = thisIterator(this);
      requireCallable(o, fn);
      const rec = getIteratorDirect(o);
      for (let counter = 0; ; counter++) {
        const v = stepValue(rec);
        if (v === DONE) return undefined;
        try {
          fn(v, counter);
        } catch (e) {
          closeThrow(o, e);
        }
      }
    },
    some(predicate) {
      const o = thisIterator(this);
      requireCallable(o, predicate);
      const rec = getIteratorDirect(o);
      for (let counter = 0; ; counter++) {
        const v = stepValue(rec);
        if (v === DONE) return false;
        let r;
        try {
          r = predicate(v, counter);
        } catch (e) {
          closeThrow(o, e);
        }
        if (r) {
          closeNormal(o);
          return true;
        }
      }
    },
    every(predicate) {
      const o = thisIterator(this);
      requireCallable(o, predicate);
      const rec = getIteratorDirect(o);
      for (let counter = 0; ; counter++) {
        const v = stepValue(rec);
        if (v === DONE) return true;
        let r;
        try {
          r = predicate(v, counter);
        } catch (e) {
          closeThrow(o, e);
        }
        if (!r) {
          closeNormal(o);
          return false;
        }
      }
    },
    find(predicate) {
      const o = thisIterator(this);
      requireCallable(o, predicate);
      const rec = getIteratorDirect(o);
      for (let counter = 0; ; counter++) {
        const v = stepValue(rec);
        if (v === DONE) return undefined;
        let r;
        try {
          r = predicate(v, counter);
        } catch (e) {
          closeThrow(o, e);
        }
        if (r) {
          closeNormal(o);
          return v;
        }
      }
    },
    get "@@toStringTag"() {
      return "Iterator";
    },
    set "@@toStringTag"(v) {
      setIgnoringHome(this, IteratorPrototype, SymbolToStringTag, v);
    },
    get constructor() {
      return Iterator;
    },
    set constructor(v) {
      setIgnoringHome(this, IteratorPrototype, "constructor", v);
    },
  });
})
