const xs: readonly number[] = [1, 2];
const ys: ReadonlyArray<string> = ["a"];
function sum(a: readonly number[]): number { return a.reduce((p, c) => p + c, 0); }
console.log(sum(xs), ys);
