function* counter(limit: number): Generator<number, void, unknown> {
  for (let i = 0; i < limit; i++) { const r: unknown = yield i; if (r) return; }
}
console.log([...counter(3)]);
