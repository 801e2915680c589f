class H {
  count: number = 0;
  inc = (by: number = 1): number => (this.count += by);
  static make = <T,>(x: T): T[] => [x];
}
const h = new H();
h.inc(); h.inc(2);
console.log(h.count, H.make("z"));
