let a: number = 1;
const b: string = "x";
var c: boolean | null = null;
let d: Array<number> = [1, 2];
let e: { x: number; y?: string } = { x: 1 };
console.log(a, b, c, d, e);
