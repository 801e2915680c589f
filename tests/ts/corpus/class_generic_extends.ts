class Base<T> { constructor(public v: T) {} get(): T { return this.v; } }
class Child<U> extends Base<U[]> implements Iterable<U> {
  *[Symbol.iterator](): Iterator<U> { yield* this.v; }
}
const c = new Child<number>([1, 2]);
console.log([...c], c.get());
