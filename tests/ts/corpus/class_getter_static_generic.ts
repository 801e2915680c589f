class Registry<T extends { id: string }> {
  private items = new Map<string, T>();
  add(item: T): this { this.items.set(item.id, item); return this; }
  get size(): number { return this.items.size; }
  static of<U extends { id: string }>(...xs: U[]): Registry<U> { const r = new Registry<U>(); xs.forEach((x) => r.add(x)); return r; }
}
console.log(Registry.of({ id: "a" }, { id: "b" }).size);
