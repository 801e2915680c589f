class A {
  declare x: number;
  y = 1;
  declare readonly z: string;
}
const a = new A();
console.log(Object.keys(a), "x" in a);
