class A { constructor(public a: number) { console.log("A", a); } }
class B extends A {
  extra = 5;
  constructor(public b: number, a: number) {
    console.log("before super");
    super(a);
    console.log("after super", this.b, this.extra);
  }
}
const b = new B(2, 1);
console.log(JSON.stringify(b), Object.keys(b));
