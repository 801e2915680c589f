const add = (a: number) => (b: number) => (c: number): number => a + b + c;
console.log(add(1)(2)(3));
