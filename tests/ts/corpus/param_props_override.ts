class A { v = 1 }
class B extends A {
  constructor(public override v: number, private readonly n: string) { super(); }
  get n2() { return this.n + this.n; }
}
console.log(new B(7, "x").v, new B(7, "x").n2);
