function f(a?: number, b?: string) { return a ? b : "none"; }
const g = (x?: boolean) => x ? 1 : 2;
const t = true ? (1) : (2);
const u = false ? (3) : 4;
console.log(f(), f(1, "b"), g(), g(true), t, u);
