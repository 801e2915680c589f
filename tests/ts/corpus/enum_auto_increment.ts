enum E { A = 10, B, C, D = 20, F }
console.log(E.B, E.C, E.F, E[21]);
