function show(this: { n: number }, extra: number) { return this.n + extra; }
function only(this: Window) { return typeof this; }
const o = { n: 1, show };
console.log(o.show(2), only.call(undefined as any));
