function f<T>(x: T): T[] { return [x]; }
function g() { return f<number>(1); }
console.log(g());
