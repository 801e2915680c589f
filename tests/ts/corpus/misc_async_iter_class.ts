class Stream<T> implements AsyncIterable<T> {
  constructor(private items: T[]) {}
  async *[Symbol.asyncIterator](): AsyncIterator<T> { for (const i of this.items) yield i; }
}
const out: string[] = [];
for await (const x of new Stream(["a", "b"])) out.push(x);
console.log(out);
