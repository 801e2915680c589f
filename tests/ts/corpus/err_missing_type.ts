// error: 2:8
let x: = 1;
