enum Flags {
  None = 0,
  A = 1 << 0,
  B = 1 << 1,
  AB = A | B,
  C = B * 2,
  Len = "abc".length,
}
console.log(Flags.AB, Flags.C, Flags.Len, Flags[3], JSON.stringify(Flags));
