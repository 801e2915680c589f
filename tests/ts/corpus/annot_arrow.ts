const f = (x: number): number => x * 2;
const g = (x: number, y?: number): string => String(x + (y ?? 0));
const h = async (s: string): Promise<string> => s.toUpperCase();
console.log(f(2), g(1), g(1, 2));
h("a").then((v: string) => console.log(v));
