const a = 3, b = 4, c = 5;
function h(x: boolean, y: boolean) { return [x, y]; }
console.log(h(a < b, c > a));
console.log([a < b, b > c]);
console.log(a < b ? "yes" : "no");
