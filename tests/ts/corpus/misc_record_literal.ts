const rec: Record<"a" | "b", number> = { a: 1, b: 2 };
const entries = Object.entries(rec) as Array<[keyof typeof rec, number]>;
console.log(entries);
