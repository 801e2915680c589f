function f() {
  type Local = { a: number };
  interface L2 { b: string }
  const x: Local = { a: 1 };
  enum Inner { P = 3 }
  return x.a + Inner.P;
}
console.log(f());
