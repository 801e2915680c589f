const ps: Promise<number>[] = [1, 2, 3].map(async (n: number): Promise<number> => n * n);
const r = await Promise.all<number>(ps);
console.log(r);
