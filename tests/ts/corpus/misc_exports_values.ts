export const a: number = 1;
export let b: string = "b";
export function c(): number { return 3; }
export class D { e: number = 4; }
export default function main(): void { console.log(a, b, c(), new D().e); }
main();
