// error: 2:7
let a b = 1;
