enum S { A = "a", B = A + "b", C = `c` }
console.log(S.A, S.B, S.C, Object.keys(S));
