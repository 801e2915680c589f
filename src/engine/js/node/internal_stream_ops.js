/* node/internal_stream_ops.js — the stream operators of Readable (Node's experimental ones): map,
 * filter, flatMap, take and drop give a new object-mode Readable; forEach, toArray, some, every,
 * find and reduce give a promise. They consume the stream through its async iterator, one chunk
 * at a time: `concurrency` is accepted and does not run callbacks in parallel (results and their
 * order are the same as Node's for callbacks that do not race each other).
 *
 * install(Readable) adds them to Readable.prototype; no capability. */
(function (require, natives, name) {
  "use strict";
  const { invalidArgType, codedError } = require("internal/text");

  function checkFn(fn) {
    if (typeof fn !== "function") throw invalidArgType("fn", "of type function or an instance of AsyncFunction", fn);
  }
  // As Node: a number of sorts (NaN counts 0), never negative.
  function checkCount(n) {
    n = Number(n);
    if (Number.isNaN(n)) return 0;
    if (n < 0) throw codedError(RangeError, "ERR_OUT_OF_RANGE", 'The value of "number" is out of range. It must be >= 0. Received ' + n);
    return n;
  }
  function checkOptions(options) {
    if (options !== undefined && (options === null || typeof options !== "object")) {
      throw invalidArgType("options", "of type object", options);
    }
    return options || {};
  }

  function install(Readable) {
    const P = Readable.prototype;
    const out = (gen) => Readable.from(gen, { objectMode: true });
    const signalOf = (options) => ({ signal: options.signal || new AbortController().signal });

    function map(fn, options) {
      checkFn(fn);
      const opts = signalOf(checkOptions(options));
      const src = this;
      return out((async function* () { for await (const chunk of src) yield await fn(chunk, opts); })());
    }
    function filter(fn, options) {
      checkFn(fn);
      const opts = signalOf(checkOptions(options));
      const src = this;
      return out((async function* () { for await (const chunk of src) if (await fn(chunk, opts)) yield chunk; })());
    }
    function flatMap(fn, options) {
      checkFn(fn);
      const opts = signalOf(checkOptions(options));
      const src = this;
      return out((async function* () { for await (const chunk of src) yield* await fn(chunk, opts); })());
    }
    function take(n, options) {
      n = checkCount(n);
      checkOptions(options);
      const src = this;
      return out((async function* () {
        if (n <= 0) return;
        for await (const chunk of src) {
          yield chunk;
          if (--n <= 0) return;
        }
      })());
    }
    function drop(n, options) {
      n = checkCount(n);
      checkOptions(options);
      const src = this;
      return out((async function* () { for await (const chunk of src) { if (n > 0) { n--; continue; } yield chunk; } })());
    }
    async function forEach(fn, options) {
      checkFn(fn);
      const opts = signalOf(checkOptions(options));
      for await (const chunk of this) await fn(chunk, opts);
    }
    async function toArray(options) {
      checkOptions(options);
      const result = [];
      for await (const chunk of this) result.push(chunk);
      return result;
    }
    async function some(fn, options) {
      checkFn(fn);
      const opts = signalOf(checkOptions(options));
      for await (const chunk of this) if (await fn(chunk, opts)) return true;
      return false;
    }
    async function every(fn, options) {
      checkFn(fn);
      const opts = signalOf(checkOptions(options));
      for await (const chunk of this) if (!(await fn(chunk, opts))) return false;
      return true;
    }
    async function find(fn, options) {
      checkFn(fn);
      const opts = signalOf(checkOptions(options));
      for await (const chunk of this) if (await fn(chunk, opts)) return chunk;
      return undefined;
    }
    async function reduce(fn, ...rest) {
      checkFn(fn);
      let hasInitial = rest.length > 0;
      let acc = rest[0];
      const opts = signalOf(checkOptions(rest[1]));
      for await (const chunk of this) {
        if (!hasInitial) { acc = chunk; hasInitial = true; continue; }
        acc = await fn(acc, chunk, opts);
      }
      if (!hasInitial) {
        throw codedError(TypeError, "ERR_MISSING_ARGS", "Reduce of an empty stream requires an initial value");
      }
      return acc;
    }
    const ops = { map, filter, flatMap, take, drop, forEach, toArray, some, every, find, reduce };
    for (const k of Object.keys(ops)) {
      Object.defineProperty(P, k, { value: ops[k], writable: true, configurable: true, enumerable: false });
    }
  }

  return Object.freeze({ install });
})
