const a = 1, b = 2, c = 3;
function f<T>(x: T) { return x; }
console.log(a < b, b > c);
console.log(a < b && b > c);
const r1 = (a < b) ? "lt" : "ge";
console.log(r1);
console.log(f<number>(4));
const x = 5, y = 6;
console.log(x < y, x > (y));
