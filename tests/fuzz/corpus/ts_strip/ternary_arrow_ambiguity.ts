const flag = true;
const x = 1, y = 2;
const r = flag ? (x) : y;
const s = flag ? (x): number => x : (y: number) => y;
console.log(r, typeof s);
