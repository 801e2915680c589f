// error: 2:11
let a = 1 ¤ 2;
