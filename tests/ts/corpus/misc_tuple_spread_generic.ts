function tuple<T extends unknown[]>(...xs: T): T { return xs; }
const t = tuple(1, "a", true);
const [n, s] = t;
console.log(t, n, s);
