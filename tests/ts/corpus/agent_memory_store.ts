interface Entry<V> { key: string; value: V; at: number }
export class Memory<V = string> {
  #entries: Entry<V>[] = [];
  constructor(private readonly limit: number = 3, public name?: string) {}
  remember(key: string, value: V, at: number = this.#entries.length): void {
    this.#entries.push({ key, value, at });
    if (this.#entries.length > this.limit) this.#entries.shift();
  }
  recall(pred: (e: Entry<V>) => boolean): V[] { return this.#entries.filter(pred).map((e) => e.value); }
  get keys(): readonly string[] { return this.#entries.map((e) => e.key); }
}
const m = new Memory<number>(2, "m");
m.remember("a", 1); m.remember("b", 2); m.remember("c", 3);
console.log(m.keys, m.recall((e) => e.value > 2), m.name, JSON.stringify(m));
