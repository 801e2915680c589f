namespace Types {
  export interface Foo { a: number }
  export type Bar = string;
}
declare namespace Ambient { const q: number; }
const f: Types.Foo = { a: 1 };
console.log(f, typeof (globalThis as any).Types);
