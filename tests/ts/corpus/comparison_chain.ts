const a = 1, b = 2, c = 3, d = 4;
console.log(a < b, c > d, a < b == c > d);
console.log((a < b), (c > d));
const arr = [a < b, c > d];
console.log(arr);
