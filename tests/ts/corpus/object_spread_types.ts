type A = { a: number };
const base: A = { a: 1 };
const ext = { ...base, b: 2 } as A & { b: number };
const { a, ...rest }: A & { b: number } = ext;
console.log(ext, a, rest);
