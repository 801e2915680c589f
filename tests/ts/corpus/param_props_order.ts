class C {
  y = (this as any).x * 2;
  constructor(public x: number) {}
}
const c = new C(4);
console.log(c.x, c.y, Object.keys(c));
