const key = "k";
const o = { a: 1, "b": 2, [key]: 3, c: true ? 4 : 5, d: { e: (x: number) => x } };
const short = { key };
console.log(o, short, o.d.e(6));
