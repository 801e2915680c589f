const f = <T = string,>(x: T): T => x;
const g = <T extends unknown[] = []>(...xs: T): number => xs.length;
console.log(f("a"), g(1, 2, 3));
