/* esnext/small.js — the small newer built-ins: Promise.try, RegExp.escape, Math.sumPrecise,
 * Map/WeakMap.prototype.getOrInsert(Computed) (upsert), Math.f16round and
 * DataView.prototype.getFloat16/setFloat16.
 *
 * Each reads its receiver through intrinsics captured here; the only lookups on guest objects are
 * the spec's (the constructor a Promise.try is called on, an iterable's iterator).
 * Float16Array itself is not provided (a typed array kind needs the engine).
 *
 * (Error.isError and Atomics.pause need no JavaScript: esnext.c has them.)
 *
 * Trusts: lib (esnext/01-lib.js) and the intrinsics 00-captures.js captured.
 */
(function (lib, natives) {
  "use strict";
  const { call, isObject, isCallable, DONE, stepValue, closeThrow, getMethod, getIteratorFromMethod, toIndex,
    createDataProperty, register } = lib;
  const { TypeErrorCtor, RangeErrorCtor, ReflectApply, NumberIsNaN, NumberIsInteger, NumberToString, StringCharCodeAt,
    StringFromCharCode, StringPadStart, MathAbs, MathFloor, MathLog2, SymbolIterator, SymbolKeyFor, MapHas, MapGet,
    MapSet, WeakMapHas, WeakMapGet, WeakMapSet, DataViewBuffer, DataViewGetUint16, DataViewSetUint16 } = lib.P;

  /* ---- Promise.try ---- */
  register("Promise", {
    try(callbackfn, ...args) {
      const C = this;
      if (!isObject(C)) throw new TypeErrorCtor("Promise.try called on a non-object");
      let resolve, reject;
      const promise = new C((res, rej) => {
        if (resolve !== undefined || reject !== undefined) throw new TypeErrorCtor("promise capability executor called twice");
        resolve = res;
        reject = rej;
      });
      if (!isCallable(resolve) || !isCallable(reject)) throw new TypeErrorCtor("the promise constructor did not provide resolve/reject functions");
      let value;
      try {
        value = ReflectApply(callbackfn, undefined, args);
      } catch (e) {
        reject(e);
        return promise;
      }
      resolve(value);
      return promise;
    },
  });

  /* ---- RegExp.escape ---- */
  const hex = (n, width) => call(StringPadStart, call(NumberToString, n, 16), width, "0");
  const isSyntaxOrSolidus = (c) =>
    c === 0x5e || c === 0x24 || c === 0x5c || c === 0x2e || c === 0x2a || c === 0x2b || c === 0x3f || c === 0x28 ||
    c === 0x29 || c === 0x5b || c === 0x5d || c === 0x7b || c === 0x7d || c === 0x7c || c === 0x2f;
  const controlEscape = { __proto__: null, 9: "t", 10: "n", 11: "v", 12: "f", 13: "r" };
  // ,-=<>#&!%:;@~'`"
  const isOtherPunctuator = (c) =>
    c === 0x2c || c === 0x2d || c === 0x3d || c === 0x3c || c === 0x3e || c === 0x23 || c === 0x26 || c === 0x21 ||
    c === 0x25 || c === 0x3a || c === 0x3b || c === 0x40 || c === 0x7e || c === 0x27 || c === 0x60 || c === 0x22;
  const isWhiteOrLineTerminator = (c) =>
    c === 0x09 || c === 0x0b || c === 0x0c || c === 0x20 || c === 0xa0 || c === 0xfeff || c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) || c === 0x202f || c === 0x205f || c === 0x3000 ||
    c === 0x0a || c === 0x0d || c === 0x2028 || c === 0x2029;
  function escapeUnit(c) {
    if (isSyntaxOrSolidus(c)) return "\\" + StringFromCharCode(c);
    const ce = controlEscape[c];
    if (ce !== undefined) return "\\" + ce;
    if (isOtherPunctuator(c) || isWhiteOrLineTerminator(c) || (c >= 0xd800 && c <= 0xdfff)) {
      return c <= 0xff ? "\\x" + hex(c, 2) : "\\u" + hex(c, 4);
    }
    return StringFromCharCode(c);
  }
  register("RegExp", {
    escape(S) {
      if (typeof S !== "string") throw new TypeErrorCtor("RegExp.escape needs a string");
      let out = "";
      const n = S.length;
      for (let i = 0; i < n; i++) {
        const c = call(StringCharCodeAt, S, i);
        if (i === 0 && ((c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a))) {
          out += "\\x" + hex(c, 2);
        } else if (c >= 0xd800 && c <= 0xdbff && i + 1 < n) {
          const d = call(StringCharCodeAt, S, i + 1);
          if (d >= 0xdc00 && d <= 0xdfff) {
            out += StringFromCharCode(c, d); // a whole supplementary code point: kept as it is
            i++;
          } else {
            out += escapeUnit(c);
          }
        } else {
          out += escapeUnit(c);
        }
      }
      return out;
    },
  });

  /* ---- Math.sumPrecise: the exact sum, rounded once (Shewchuk's non-overlapping partials) ---- */
  const TWO1023 = 8.98846567431158e307; // 2**1023
  // Adds x to the partials (largest last). Returns the overflow carried (multiples of 2**1024).
  function addPartial(partials, x) {
    let overflow = 0;
    let n = 0;
    for (let i = 0; i < partials.length; i++) {
      let y = partials[i];
      if (MathAbs(x) < MathAbs(y)) {
        const t = x;
        x = y;
        y = t;
      }
      let hi = x + y;
      if (hi === Infinity || hi === -Infinity) {
        const s = x > 0 ? 1 : -1;
        overflow += s;
        x = x - s * TWO1023 - s * TWO1023;
        hi = x + y;
      }
      const lo = y - (hi - x);
      if (lo !== 0) partials[n++] = lo;
      x = hi;
    }
    partials.length = n;
    createDataProperty(partials, n, x); // (an index assignment could reach a setter on Array.prototype)
    return overflow;
  }
  function roundPartials(p) {
    let n = p.length;
    if (n === 0) return 0;
    let hi = p[--n];
    let lo = 0;
    while (n > 0) {
      const x = hi;
      const y = p[--n];
      hi = x + y;
      lo = y - (hi - x);
      if (lo !== 0) break;
    }
    if (n > 0 && ((lo < 0 && p[n - 1] < 0) || (lo > 0 && p[n - 1] > 0))) {
      const y = lo * 2;
      const x = hi + y;
      if (y === x - hi) hi = x;
    }
    return hi;
  }
  register("Math", {
    sumPrecise(items) {
      if (items === undefined || items === null) throw new TypeErrorCtor("Math.sumPrecise needs an iterable");
      const method = getMethod(items, SymbolIterator);
      if (method === undefined) throw new TypeErrorCtor("Math.sumPrecise needs an iterable");
      const rec = getIteratorFromMethod(items, method);
      // state: 0 minus-zero, 1 finite, 2 +inf, 3 -inf, 4 NaN
      let state = 0;
      let count = 0;
      let overflow = 0;
      const partials = [];
      for (;;) {
        const v = stepValue(rec);
        if (v === DONE) break;
        if (++count >= 9007199254740992) closeThrow(rec.it, new RangeErrorCtor("too many values"));
        if (typeof v !== "number") closeThrow(rec.it, new TypeErrorCtor("Math.sumPrecise: a value is not a number"));
        if (state === 4) continue;
        if (NumberIsNaN(v)) state = 4;
        else if (v === Infinity) state = state === 3 ? 4 : 2;
        else if (v === -Infinity) state = state === 2 ? 4 : 3;
        else if (!(v === 0 && 1 / v < 0) && (state === 0 || state === 1)) {
          state = 1;
          overflow += addPartial(partials, v);
        }
      }
      if (state === 4) return NaN;
      if (state === 2) return Infinity;
      if (state === 3) return -Infinity;
      if (state === 0) return -0;
      if (overflow !== 0) {
        // The sum is overflow * 2**1024 + the partials: round it at half scale (exact), then
        // double (which overflows to ±Infinity exactly when the true sum rounds past MAX_VALUE).
        if (overflow > 1 || overflow < -1) return overflow > 0 ? Infinity : -Infinity;
        const half = [];
        for (let i = 0; i < partials.length; i++) createDataProperty(half, i, partials[i] / 2);
        addPartial(half, overflow * TWO1023);
        return roundPartials(half) * 2;
      }
      return roundPartials(partials);
    },
  });

  /* ---- upsert ---- */
  register("Map.prototype", {
    getOrInsert(key, value) {
      if (call(MapHas, this, key)) return call(MapGet, this, key);
      call(MapSet, this, key, value);
      return value;
    },
    getOrInsertComputed(key, callbackfn) {
      call(MapHas, this, key); // RequireInternalSlot
      if (!isCallable(callbackfn)) throw new TypeErrorCtor("getOrInsertComputed: the callback is not a function");
      if (key === 0) key = 0; // -0 → +0
      if (call(MapHas, this, key)) return call(MapGet, this, key);
      const value = callbackfn(key);
      call(MapSet, this, key, value);
      return value;
    },
  });
  // CanBeHeldWeakly
  const canBeHeldWeakly = (v) => isObject(v) || (typeof v === "symbol" && SymbolKeyFor(v) === undefined);
  register("WeakMap.prototype", {
    getOrInsert(key, value) {
      call(WeakMapHas, this, key);
      if (!canBeHeldWeakly(key)) throw new TypeErrorCtor("invalid WeakMap key");
      if (call(WeakMapHas, this, key)) return call(WeakMapGet, this, key);
      call(WeakMapSet, this, key, value);
      return value;
    },
    getOrInsertComputed(key, callbackfn) {
      call(WeakMapHas, this, key);
      if (!canBeHeldWeakly(key)) throw new TypeErrorCtor("invalid WeakMap key");
      if (!isCallable(callbackfn)) throw new TypeErrorCtor("getOrInsertComputed: the callback is not a function");
      if (call(WeakMapHas, this, key)) return call(WeakMapGet, this, key);
      const value = callbackfn(key);
      call(WeakMapSet, this, key, value);
      return value;
    },
  });

  /* ---- binary16 ---- */
  // Rounds a finite non-zero magnitude a to binary16 (ties to even); Infinity above the range.
  function roundMagnitude16(a) {
    if (a >= 65520) return Infinity;
    let quantum;
    if (a < 6.103515625e-5) {
      quantum = 5.960464477539063e-8; // 2**-24, subnormal spacing
    } else {
      let e = MathFloor(MathLog2(a));
      if (2 ** e > a) e--;
      else if (2 ** (e + 1) <= a) e++;
      quantum = 2 ** (e - 10);
    }
    const q = a / quantum;
    let f = MathFloor(q);
    const d = q - f;
    if (d > 0.5 || (d === 0.5 && f % 2 === 1)) f++;
    return f * quantum;
  }
  function f16round(x) {
    const n = +x;
    if (NumberIsNaN(n) || n === 0 || n === Infinity || n === -Infinity) return n;
    const r = roundMagnitude16(MathAbs(n));
    return n < 0 ? -r : r;
  }
  function toBits16(n) {
    if (NumberIsNaN(n)) return 0x7e00;
    const sign = n < 0 || (n === 0 && 1 / n < 0) ? 0x8000 : 0;
    const a = MathAbs(n);
    if (a === 0) return sign;
    const r = a === Infinity ? Infinity : roundMagnitude16(a);
    if (r === Infinity) return sign | 0x7c00;
    if (r < 6.103515625e-5) return sign | (r / 5.960464477539063e-8);
    let e = MathFloor(MathLog2(r));
    if (2 ** e > r) e--;
    else if (2 ** (e + 1) <= r) e++;
    return sign | ((e + 15) << 10) | (r / 2 ** (e - 10) - 1024);
  }
  function fromBits16(b) {
    const sign = b & 0x8000 ? -1 : 1;
    const exp = (b >> 10) & 31;
    const m = b & 1023;
    if (exp === 0) return sign * m * 5.960464477539063e-8;
    if (exp === 31) return m ? NaN : sign * Infinity;
    return sign * (1024 + m) * 2 ** (exp - 25);
  }
  register("Math", {
    f16round(x) {
      return f16round(x);
    },
  });
  register("DataView.prototype", {
    getFloat16(byteOffset, ...rest) {
      return fromBits16(call(DataViewGetUint16, this, byteOffset, rest.length > 0 ? rest[0] : undefined));
    },
    setFloat16(byteOffset, value, ...rest) {
      call(DataViewBuffer, this); // RequireInternalSlot(view, [[DataView]])
      const index = toIndex(byteOffset);
      const n = +value;
      call(DataViewSetUint16, this, index, toBits16(n), rest.length > 0 ? rest[0] : undefined);
      return undefined;
    },
  });
})
