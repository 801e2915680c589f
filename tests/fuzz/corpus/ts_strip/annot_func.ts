function add(x: number, y: number): number { return x + y; }
function opt(x?: number, y: string = "d"): string { return `${x}-${y}`; }
function rest(...xs: number[]): number { return xs.reduce((a: number, b: number) => a + b, 0); }
console.log(add(1, 2), opt(), opt(3), rest(1, 2, 3));
