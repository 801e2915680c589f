const conf = { a: 1, b: "x" };
type K = keyof typeof conf;
type V = (typeof conf)[K];
const k: K = "a";
const t = typeof conf;
console.log(k, t, typeof k);
