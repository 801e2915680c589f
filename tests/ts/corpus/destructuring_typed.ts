const { a, b: { c } }: { a: number; b: { c: string } } = { a: 1, b: { c: "x" } };
const [x, , y = 3]: number[] = [1, 2];
function f({ p = 1, q }: { p?: number; q: number }, [r]: [string]) { return [p, q, r]; }
console.log(a, c, x, y, f({ q: 2 }, ["r"]));
