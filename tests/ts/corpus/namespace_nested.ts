namespace Outer {
  export namespace Inner {
    export const x = 1;
  }
  export const y = Inner.x + 1;
}
namespace A.B.C {
  export const deep = "deep";
}
console.log(Outer.Inner.x, Outer.y, A.B.C.deep);
