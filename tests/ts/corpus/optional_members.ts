class O {
  a?: number;
  b?(): string;
  c? = 3;
  m?(x: number): number { return x; }
}
const o = new O();
console.log(o.a, o.c, o.m!(2), Object.keys(o));
