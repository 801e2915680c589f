const a = (x: number): number => x + 1;
const b = (): void => {};
const c = (x: number): (y: number) => number => (y) => x + y;
const d = ({ p, q }: { p: number; q: number }): number => p + q;
const e = ([m, n]: [number, number]): string => `${m}${n}`;
const f = (x): x is number => typeof x === "number";
console.log(a(1), b(), c(1)(2), d({ p: 1, q: 2 }), e([3, 4]), f(1));
