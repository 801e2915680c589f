class C {
  map<T, U>(xs: T[], f: (x: T) => U): U[] { return xs.map(f); }
  async am<T>(x: T): Promise<T> { return x; }
  *gm<T>(x: T): Generator<T> { yield x; }
}
const c = new C();
c.am(1).then((v) => console.log(c.map([1, 2], (x) => x * 2), v, [...c.gm("g")]));
