type U =
  | { kind: "a"; v: number }
  | { kind: "b"; s: string };
type I =
  & { a: 1 }
  & { b: 2 };
function f(u: U): string { return u.kind === "a" ? String(u.v) : u.s; }
console.log(f({ kind: "a", v: 1 }), f({ kind: "b", s: "x" }));
