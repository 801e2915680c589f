const m = new Map(), s = new Set([1, 2, 3]), w = new WeakMap(); m.set(NaN, 1); w.set({}, 1);
console.log(Object.groupBy([1, 2, 3], (v) => v % 2), Array.from({ length: 5 }, (_, i) => i).findLast((v) => v < 3), [3, 1, 2].toSorted(), structuredClone?.({ a: 1 }));
console.log(new Date(0).toISOString(), Date.UTC(2020, 1), Math.random(), Number('0b101'), (1234.5678).toFixed(2), (0.1).toPrecision(21), parseFloat('1e-7'));
const it = Iterator?.from?.([1, 2, 3]); console.log(it && [...it.map((x) => x * 2).take(2)]);
