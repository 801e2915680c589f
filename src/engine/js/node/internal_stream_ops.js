/* node/internal_stream_ops.js — the stream operators of Readable (Node's experimental ones): map,
 * filter, flatMap, take and drop give a new object-mode Readable; forEach, toArray, some, every,
 * find and reduce give a promise. map, filter, flatMap, forEach, some, every and find run up to
 * `concurrency` callbacks at once (default 1) and keep the source's order in what they give; each
 * callback gets `{ signal }`, aborted when `options.signal` aborts, which also ends the operator
 * with an AbortError (as in Node 20, an operator that stops early, a `some` that found its
 * answer, leaves the signal of callbacks still running alone). reduce runs one callback at a time, as in Node.
 *
 * install(Readable) adds them to Readable.prototype; no capability. Trusts natives.primordials:
 * no async functions, promises chained with the captured `then`, prototype-less lists. */
(function (require, natives, name) {
  "use strict";
  const { invalidArgType, codedError } = require("internal/text");
  const P = natives.primordials, u = P.uncurry;
  const SP = require("internal/webstreams").SP; // the streams' own captures, named
  const {
    ReflectApply, ObjectDefineProperty, MathFloor, NumberCtor, NumberIsInteger, StringCtor, PromiseCtor, PromiseOwn,
    PromiseThen, PromiseFrom, PromiseResolve, PromiseReject, TypeErrorCtor, list,
  } = P;
  const { NumberIsNaN, RangeErrorCtor, SymbolAsyncIterator, SymbolIterator } = SP;
  const ArrayPush = u(P.ArrayPrototypePush), ArrayShift = u(SP.ArrayPrototypeShift);
  const abort = () => require("internal/abort");

  function checkFn(fn) {
    if (typeof fn !== "function") throw invalidArgType("fn", "of type function or an instance of AsyncFunction", fn);
  }
  // As Node: a number of sorts (NaN counts 0), never negative.
  function checkCount(n) {
    n = NumberCtor(n);
    if (NumberIsNaN(n)) return 0;
    if (n < 0) throw codedError(RangeErrorCtor, "ERR_OUT_OF_RANGE", 'The value of "number" is out of range. It must be >= 0. Received ' + n);
    return n;
  }
  function checkOptions(options) {
    if (options !== undefined && (options === null || typeof options !== "object")) {
      throw invalidArgType("options", "of type object", options);
    }
    const o = options || {};
    const signal = o.signal;
    if (signal !== undefined && (signal === null || typeof signal !== "object" || !("aborted" in signal)))
      throw invalidArgType("options.signal", "an instance of AbortSignal", signal);
    return o;
  }
  function concurrencyOf(o) {
    if (o.concurrency === undefined || o.concurrency === null) return 1;
    const c = MathFloor(o.concurrency);
    if (!NumberIsInteger(c)) {
      throw codedError(RangeErrorCtor, "ERR_OUT_OF_RANGE", 'The value of "options.concurrency" is out of range. It must be an integer. Received ' + StringCtor(c));
    }
    if (c < 1) throw codedError(RangeErrorCtor, "ERR_OUT_OF_RANGE", 'The value of "options.concurrency" is out of range. It must be >= 1 && <= 9007199254740991. Received ' + c);
    return c;
  }
  function deferred() {
    let resolve, reject;
    const promise = PromiseOwn(new PromiseCtor((a, b) => { resolve = a; reject = b; }));
    return { __proto__: null, promise, resolve, reject };
  }
  // The result of calling a guest callback, as an internal promise (a throw becomes a rejection).
  function attempt(fn, args) {
    try { return PromiseFrom(ReflectApply(fn, undefined, args)); } catch (e) { return PromiseReject(e); }
  }
  // The callbacks' signal (an AbortController made when a callback first reads it), aborted
  // with the caller's signal; `onAbort` runs when the caller's signal aborts. `opts()` is the
  // `{ signal }` a callback gets.
  function linked(signal, onAbort) {
    let ac = null, aborted = false, reason;
    const state = {
      __proto__: null,
      get signal() {
        if (ac === null) {
          ac = new (abort().AbortController)();
          if (aborted) ac.abort(reason);
        }
        return ac.signal;
      },
      opts: () => ({ get signal() { return state.signal; } }),
    };
    if (signal !== undefined) {
      const stop = () => {
        aborted = true;
        reason = signal.reason;
        if (ac !== null) ac.abort(reason);
        onAbort(abort().abortError(signal));
      };
      if (signal.aborted) stop();
      else signal.addEventListener("abort", stop, { once: true });
    }
    return state;
  }

  const EMPTY = { __proto__: null }; // a callback's answer that gives nothing downstream

  function install(Readable) {
    const Proto = Readable.prototype;
    const iteratorOf = (src) => src[SymbolAsyncIterator]();

    // Each chunk of `src` through `each(chunk, signal)` (which answers a promise), up to
    // `concurrency` at once; the answers come out in the source's order, EMPTY ones dropped.
    function mapped(src, o, each) {
      const concurrency = concurrencyOf(o);
      const it = iteratorOf(src);
      const pending = list();
      let srcDone = false, pulling = false, stopped = false, want = false, ended = false;
      const out = new Readable({
        objectMode: true,
        highWaterMark: o.highWaterMark === undefined || o.highWaterMark < 1 ? 1 : o.highWaterMark,
        read() { want = true; deliver(); fill(); },
        destroy(err, cb) {
          stop();
          cb(err);
        },
      });
      // as in Node 20, the callbacks' signal aborts with options.signal only, not on an early stop
      const stop = () => {
        if (stopped) return;
        stopped = true;
        if (!srcDone && typeof it.return === "function") { try { PromiseFrom(it.return()); } catch (_) { /* ended */ } }
      };
      const fail = (e) => { if (!stopped) out.destroy(e); };
      const ac = linked(o.signal, (err) => out.destroy(err));
      const fill = () => {
        while (!srcDone && !pulling && !stopped && pending.length < concurrency) {
          pulling = true;
          let p;
          try { p = PromiseFrom(it.next()); } catch (e) { pulling = false; fail(e); return; }
          PromiseThen(p, (r) => {
            pulling = false;
            if (stopped) return;
            if (r.done) { srcDone = true; deliver(); return; }
            const entry = { __proto__: null, settled: false, failed: false, value: undefined };
            ArrayPush(pending, entry);
            PromiseThen(each(r.value, ac.opts()), (v) => { entry.settled = true; entry.value = v; deliver(); },
              (e) => { entry.settled = true; entry.failed = true; entry.value = e; deliver(); });
            fill();
          }, (e) => { pulling = false; fail(e); });
        }
      };
      const deliver = () => {
        while (want && !stopped && pending.length > 0 && pending[0].settled) {
          const entry = ArrayShift(pending);
          if (entry.failed) { fail(entry.value); return; }
          if (entry.value !== EMPTY) want = out.push(entry.value);
        }
        if (!stopped && srcDone && pending.length === 0 && !ended) { ended = true; out.push(null); return; }
        fill();
      };
      return out;
    }

    // Calls onValue(chunk) for each chunk in turn (waiting for the promise it may answer); the
    // result settles at the end, at the first rejection, or when onValue answers STOP.
    const STOP = { __proto__: null };
    function iterate(src, o, onValue) {
      const d = deferred();
      const it = iteratorOf(src);
      let done = false;
      const finish = (ok, v) => {
        if (done) return;
        done = true;
        if (ok) d.resolve(v); else d.reject(v);
      };
      const closeSource = () => { if (typeof it.return === "function") { try { PromiseFrom(it.return()); } catch (_) { /* ended */ } } };
      linked(o.signal, (err) => { closeSource(); finish(false, err); });
      const loop = () => {
        if (done) return;
        let p;
        try { p = PromiseFrom(it.next()); } catch (e) { finish(false, e); return; }
        PromiseThen(p, (r) => {
          if (done) return;
          if (r.done) { finish(true, undefined); return; }
          let next;
          try { next = PromiseFrom(onValue(r.value)); } catch (e) { closeSource(); finish(false, e); return; }
          PromiseThen(next, (v) => {
            if (v === STOP) { closeSource(); finish(true, undefined); return; }
            loop();
          }, (e) => { closeSource(); finish(false, e); });
        }, (e) => finish(false, e));
      };
      loop();
      return d.promise;
    }

    // A Readable over a hand-written async iterator: next() answers an internal promise.
    function fromNext(next, ret) {
      const iterator = {
        next,
        return() { if (ret) ret(); return PromiseResolve({ value: undefined, done: true }); },
        [SymbolAsyncIterator]() { return this; },
      };
      return Readable.from(iterator, { objectMode: true });
    }

    function map(fn, options) {
      checkFn(fn);
      const o = checkOptions(options);
      return mapped(this, o, (chunk, opts) => attempt(fn, [chunk, opts]));
    }
    function filter(fn, options) {
      checkFn(fn);
      const o = checkOptions(options);
      return mapped(this, o, (chunk, opts) => PromiseThen(attempt(fn, [chunk, opts]), (keep) => (keep ? chunk : EMPTY)));
    }
    function flatMap(fn, options) {
      const values = ReflectApply(map, this, [fn, options]);
      const outer = iteratorOf(values);
      let inner = null;
      const step = () => {
        if (inner !== null) {
          return PromiseThen(PromiseFrom(inner.next()), (r) => {
            if (!r.done) return r;
            inner = null;
            return step();
          });
        }
        return PromiseThen(PromiseFrom(outer.next()), (r) => {
          if (r.done) return r;
          const v = r.value;
          const m = v !== null && v !== undefined && typeof v[SymbolAsyncIterator] === "function" ? v[SymbolAsyncIterator] : v[SymbolIterator];
          if (typeof m !== "function") throw new TypeErrorCtor("flatMap: the callback must answer an iterable or async iterable");
          inner = ReflectApply(m, v, []);
          return step();
        });
      };
      return fromNext(step, () => values.destroy());
    }
    function take(n, options) {
      n = checkCount(n);
      checkOptions(options);
      const it = iteratorOf(this);
      let left = n;
      return fromNext(() => {
        if (left <= 0) {
          if (typeof it.return === "function") PromiseFrom(it.return());
          return PromiseResolve({ value: undefined, done: true });
        }
        return PromiseThen(PromiseFrom(it.next()), (r) => {
          if (!r.done) left--;
          return r;
        });
      }, () => { if (typeof it.return === "function") PromiseFrom(it.return()); });
    }
    function drop(n, options) {
      n = checkCount(n);
      checkOptions(options);
      const it = iteratorOf(this);
      let left = n;
      const next = () => PromiseThen(PromiseFrom(it.next()), (r) => {
        if (!r.done && left > 0) { left--; return next(); }
        return r;
      });
      return fromNext(next, () => { if (typeof it.return === "function") PromiseFrom(it.return()); });
    }
    function forEach(fn, options) {
      checkFn(fn);
      const o = checkOptions(options);
      const each = mapped(this, o, (chunk, opts) => PromiseThen(attempt(fn, [chunk, opts]), () => EMPTY));
      return iterate(each, {}, () => undefined);
    }
    function toArray(options) {
      const o = checkOptions(options);
      const result = [];
      return PromiseThen(iterate(this, o, (chunk) => { P.defineValue(result, result.length, chunk); }), () => result);
    }
    // The first chunk `fn` accepts (through filter, so `concurrency` applies), or none.
    function firstMatch(src, fn, options) {
      checkFn(fn);
      const o = checkOptions(options);
      const matches = ReflectApply(filter, src, [fn, o]);
      let found = false, value;
      return PromiseThen(iterate(matches, {}, (chunk) => { found = true; value = chunk; return STOP; }), () => {
        matches.destroy();
        return { __proto__: null, found, value };
      });
    }
    function some(fn, options) {
      return PromiseThen(firstMatch(this, fn, options), (m) => m.found);
    }
    function every(fn, options) {
      checkFn(fn);
      const negated = (chunk, opts) => PromiseThen(attempt(fn, [chunk, opts]), (ok) => !ok);
      return PromiseThen(firstMatch(this, negated, options), (m) => !m.found);
    }
    function find(fn, options) {
      return PromiseThen(firstMatch(this, fn, options), (m) => m.value);
    }
    function reduce(fn, ...rest) {
      try {
        checkFn(fn);
      } catch (e) {
        return PromiseReject(e);
      }
      let hasInitial = rest.length > 0;
      let acc = rest[0];
      let o;
      try { o = checkOptions(rest[1]); } catch (e) { return PromiseReject(e); }
      const ac = linked(undefined, null);
      const opts = ac.opts();
      const done = iterate(this, o, (chunk) => {
        if (!hasInitial) { acc = chunk; hasInitial = true; return undefined; }
        return PromiseThen(attempt(fn, [acc, chunk, opts]), (v) => { acc = v; });
      });
      return PromiseThen(done, () => {
        if (!hasInitial) {
          throw codedError(TypeErrorCtor, "ERR_MISSING_ARGS", "Reduce of an empty stream requires an initial value");
        }
        return acc;
      }, (e) => { throw e; });
    }
    // the promise-returning operators reject (never throw) on a bad argument, as async functions do
    const asPromise = (f) => function (...args) {
      try { return ReflectApply(f, this, args); } catch (e) { return PromiseReject(e); }
    };
    const ops = {
      __proto__: null, map, filter, flatMap, take, drop,
      forEach: asPromise(forEach), toArray: asPromise(toArray), some: asPromise(some),
      every: asPromise(every), find: asPromise(find), reduce,
    };
    const names = ["map", "filter", "flatMap", "take", "drop", "forEach", "toArray", "some", "every", "find", "reduce"];
    for (let i = 0; i < names.length; i++) {
      const f = ops[names[i]];
      ObjectDefineProperty(f, "name", { __proto__: null, value: names[i], configurable: true });
      ObjectDefineProperty(Proto, names[i], { __proto__: null, value: f, writable: true, configurable: true, enumerable: false });
    }
  }

  return P.ObjectFreeze({ __proto__: null, install });
})
