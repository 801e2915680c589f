function* g(): Generator<number, string, boolean> { const x: boolean = yield 1; return String(x); }
const it = g();
console.log(it.next(), it.next(true));
