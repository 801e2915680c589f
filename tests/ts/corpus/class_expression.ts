const K = class<T> implements Iterable<T> {
  items: T[] = [];
  *[Symbol.iterator]() { yield* this.items; }
};
const k = new K<number>();
k.items.push(1);
console.log([...k]);
