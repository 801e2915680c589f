const n: number = 2;
const s = `a ${`b ${n > 1 ? `c ${n as number}` : "d"}`} e: <T> ${{ k: 1 }.k}`;
const fn = (x: number): string => `${x}:${x < 3}`;
console.log(s, fn(1));
