type T1 = [a: string, b?: number, ...rest: boolean[]];
const t: T1 = ["a", 1, true];
const ro: readonly [number, number] = [1, 2] as const;
console.log(t, ro);
