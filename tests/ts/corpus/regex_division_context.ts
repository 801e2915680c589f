let a = 4, b = 2, g = 1;
const c = a / b / g;
const d = (a) / b;
if (a) /x/.test("x") && console.log("regex after if");
const arr = [a] as number[];
console.log(c, d, arr[0] / 2);
