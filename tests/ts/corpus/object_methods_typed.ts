const api = {
  name: "api",
  greet<T>(x: T): string { return "hi " + String(x); },
  async load(id: number): Promise<number> { return id * 2; },
  *gen(): Generator<number> { yield 1; },
  get size(): number { return 3; },
};
api.load(2).then((v) => console.log(api.greet(1), v, [...api.gen()], api.size));
