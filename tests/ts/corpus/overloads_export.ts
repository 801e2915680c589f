export function g(a: number): number;
export function g(a: string): string;
export function g(a: any) { return a; }
console.log(g(1), g("s"));
