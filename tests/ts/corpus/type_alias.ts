type A = string;
type U = "a" | "b" |
  "c";
type Fn = (x: number) => string;
type Ctor = new (x: number) => object;
type Obj = { readonly a: number; b?: string; [k: string]: unknown };
export type E = A | U;
console.log("types erased");
