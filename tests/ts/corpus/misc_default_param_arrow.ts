function f(cb: (x: number) => number = (x: number): number => x * 3) { return cb(2); }
console.log(f(), f((x) => x));
