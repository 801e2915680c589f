class S {
  static x: number;
  static { S.x = 5; }
  static readonly y: number = S.x + 1;
}
console.log(S.x, S.y);
