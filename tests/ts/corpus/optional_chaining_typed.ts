type N = { a?: { b?: () => number } };
const n: N = { a: { b: () => 5 } };
console.log(n.a?.b?.(), (n as N).a!.b!(), n?.["a"]?.b);
