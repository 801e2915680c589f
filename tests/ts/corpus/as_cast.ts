const v: unknown = { a: 1 };
const o = v as { a: number };
const p = (v as any).a as number;
const q = v as unknown as string[];
console.log(o.a, p, q);
