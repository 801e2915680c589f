class Box<T> { constructor(public v?: T) {} }
const a = new Box<number>(1);
const b = new Box<string>;
const m = new Map<string, Array<Box<number>>>();
m.set("k", [a]);
console.log(a.v, b.v, m.get("k")![0].v);
