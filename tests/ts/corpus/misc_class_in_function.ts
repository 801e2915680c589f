function mk<T>(v: T) {
  class Holder { constructor(public readonly value: T) {} }
  return new Holder(v);
}
console.log(mk(5).value, Object.keys(mk("s")));
