//ts
interface P { x: number; y?: string }
type U = P | null;
enum E { A = 1, B }
export default async function run(input: unknown): Promise<number> { const p: P = { x: E.B }; const u = <const>[1, 2]; return p.x! + (u as readonly number[]).length; }
