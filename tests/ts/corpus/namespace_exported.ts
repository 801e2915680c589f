export namespace Api {
  export enum Kind { A, B }
  export const k = Kind.B;
}
console.log(Api.k, Api.Kind.A, Api.Kind[1]);
