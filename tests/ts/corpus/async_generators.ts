async function* gen(n: number): AsyncGenerator<number> { for (let i = 0; i < n; i++) yield i; }
async function main(): Promise<void> {
  const out: number[] = [];
  for await (const v of gen(3)) out.push(v);
  console.log(out);
}
await main();
