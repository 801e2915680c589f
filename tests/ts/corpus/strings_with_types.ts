const s1 = "let x: number = 1; interface Foo {}";
const s2 = 'type T = <T>(x: T) => T';
const s3 = `enum E { A } ${"as any"} a!.b`;
// comment: type X = string; x as any
/* interface Fake { x: number } */
console.log(s1, s2, s3);
