const a: number[] | undefined = [1];
const b = !a;
const c = !!a!;
const d = a![0]! + 1;
const e = (a)!.length;
console.log(b, c, d, e);
